package bench;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * The cell spec the runner writes on stdin (packages/shared/src/protocol.ts DriverCell). The runner
 * has already validated it with zod, so this only reads the fields, failing on a missing one.
 */
record Cell(
    String host,
    int port,
    String projectId,
    String instanceId,
    String databaseId,
    String version,
    JsonObject configuration,
    int concurrency,
    String operation,
    long warmupOps,
    Long measuredOps,
    Double durationMs,
    double deadlineMs) {

  static Cell parse(String json) {
    JsonObject o = JsonParser.parseString(json).getAsJsonObject();
    JsonObject endpoint = required(o, "endpoint").getAsJsonObject();
    JsonObject client = required(o, "client").getAsJsonObject();
    Cell cell =
        new Cell(
            required(endpoint, "host").getAsString(),
            required(endpoint, "port").getAsInt(),
            required(o, "projectId").getAsString(),
            required(o, "instanceId").getAsString(),
            required(o, "databaseId").getAsString(),
            required(client, "version").getAsString(),
            required(o, "configuration").getAsJsonObject(),
            required(o, "concurrency").getAsInt(),
            required(o, "operation").getAsString(),
            required(o, "warmupOps").getAsLong(),
            o.has("measuredOps") ? o.get("measuredOps").getAsLong() : null,
            o.has("durationMs") ? o.get("durationMs").getAsDouble() : null,
            required(o, "deadlineMs").getAsDouble());
    if ((cell.measuredOps == null) == (cell.durationMs == null)) {
      throw new IllegalArgumentException("give exactly one of measuredOps or durationMs");
    }
    if (!cell.operation.equals("select1")) {
      throw new IllegalArgumentException("unknown operation " + cell.operation);
    }
    return cell;
  }

  private static JsonElement required(JsonObject o, String name) {
    JsonElement e = o.get(name);
    if (e == null || e.isJsonNull()) throw new IllegalArgumentException("missing field " + name);
    return e;
  }
}
