package bench;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.ArrayList;
import java.util.List;

/**
 * The cell spec the runner writes on stdin (packages/shared/src/protocol.ts DriverCell). The runner
 * has already validated it with zod; this reads the fields, failing on a missing one, and refuses
 * what this driver cannot run (an unknown load shape, operation kind or security) with a sentence.
 */
record Cell(
    Endpoint endpoint,
    Database database,
    String version,
    JsonObject configuration,
    Load load,
    List<MixEntry> operations,
    Cap cap,
    double deadlineMs) {

  /**
   * Where the client connects. `security` "plaintext" goes without credentials; "tls" uses the
   * Application Default Credentials of the environment, and trusts `tlsRootsFile` (PEM; tests only,
   * null otherwise) instead of the system's roots.
   */
  record Endpoint(String host, int port, String security, String tlsRootsFile) {}

  /**
   * A cost cap over both phases: operations started in all, ms since the first started, and sessions
   * the client may create (null: not bounded).
   */
  record Cap(long ops, double ms, Long sessions) {}

  record Database(String projectId, String instanceId, String databaseId) {}

  /** One operation kind of the mix, picked with probability weight / sum of weights. */
  record MixEntry(String kind, double weight) {}

  /**
   * The load shape and its phase budgets: `warmupOps` operations, then the measured phase of
   * `measuredOps` operations or `durationMs` (exactly one of the two). One implementation per shape.
   */
  sealed interface Load permits ClosedLoad {
    long warmupOps();

    Long measuredOps();

    Double durationMs();
  }

  /**
   * `closed`: `concurrency` agents, each claiming an operation, pausing `thinkTime` (null: none),
   * then running it.
   */
  record ClosedLoad(int concurrency, ThinkTime thinkTime, long warmupOps, Long measuredOps, Double durationMs) implements Load {}

  /** An agent's pause before each operation: `ms` every time (fixed), or exponential with mean `ms`. */
  record ThinkTime(double ms, boolean exponential) {}

  static Cell parse(String json) {
    JsonObject o = JsonParser.parseString(json).getAsJsonObject();
    JsonObject endpoint = required(o, "endpoint").getAsJsonObject();
    JsonObject database = required(o, "database").getAsJsonObject();
    JsonObject client = required(o, "client").getAsJsonObject();
    String security = required(endpoint, "security").getAsString();
    if (!security.equals("plaintext") && !security.equals("tls")) {
      throw new IllegalArgumentException("unknown endpoint security " + security + " (this driver knows: plaintext, tls)");
    }
    String roots = endpoint.has("tlsRootsFile") && !endpoint.get("tlsRootsFile").isJsonNull() ? endpoint.get("tlsRootsFile").getAsString() : null;
    Cap cap = null;
    if (o.has("cap") && !o.get("cap").isJsonNull()) {
      JsonObject c = o.getAsJsonObject("cap");
      Long sessions = c.has("sessions") && !c.get("sessions").isJsonNull() ? c.get("sessions").getAsLong() : null;
      cap = new Cap(required(c, "ops").getAsLong(), required(c, "ms").getAsDouble(), sessions);
    }
    return new Cell(
        new Endpoint(required(endpoint, "host").getAsString(), required(endpoint, "port").getAsInt(), security, roots),
        new Database(
            required(database, "projectId").getAsString(),
            required(database, "instanceId").getAsString(),
            required(database, "databaseId").getAsString()),
        required(client, "version").getAsString(),
        required(o, "configuration").getAsJsonObject(),
        load(required(o, "load").getAsJsonObject()),
        operations(required(o, "operations").getAsJsonArray()),
        cap,
        required(o, "deadlineMs").getAsDouble());
  }

  private static Load load(JsonObject l) {
    String shape = required(l, "shape").getAsString();
    Long measuredOps = l.has("measuredOps") && !l.get("measuredOps").isJsonNull() ? l.get("measuredOps").getAsLong() : null;
    Double durationMs = l.has("durationMs") && !l.get("durationMs").isJsonNull() ? l.get("durationMs").getAsDouble() : null;
    if ((measuredOps == null) == (durationMs == null)) {
      throw new IllegalArgumentException("give exactly one of load.measuredOps or load.durationMs");
    }
    long warmupOps = required(l, "warmupOps").getAsLong();
    if (shape.equals("closed")) {
      int concurrency = required(l, "concurrency").getAsInt();
      if (concurrency < 1) throw new IllegalArgumentException("load.concurrency must be at least 1");
      return new ClosedLoad(concurrency, thinkTime(l), warmupOps, measuredOps, durationMs);
    }
    throw new IllegalArgumentException("unknown load shape " + shape + " (this driver knows: closed)");
  }

  private static ThinkTime thinkTime(JsonObject l) {
    if (!l.has("thinkTime") || l.get("thinkTime").isJsonNull()) return null;
    JsonObject t = l.getAsJsonObject("thinkTime");
    double ms = required(t, "ms").getAsDouble();
    if (!(ms >= 0) || Double.isInfinite(ms)) throw new IllegalArgumentException("load.thinkTime.ms must be a number of at least 0");
    String distribution = required(t, "distribution").getAsString();
    if (!distribution.equals("fixed") && !distribution.equals("exponential")) {
      throw new IllegalArgumentException("unknown load.thinkTime.distribution " + distribution + " (this driver knows: exponential, fixed)");
    }
    return ms > 0 ? new ThinkTime(ms, distribution.equals("exponential")) : null;
  }

  private static List<MixEntry> operations(JsonArray a) {
    if (a.size() == 0) throw new IllegalArgumentException("operations must list at least one operation kind");
    List<MixEntry> mix = new ArrayList<>();
    for (JsonElement e : a) {
      JsonObject m = e.getAsJsonObject();
      String kind = required(m, "kind").getAsString();
      if (!Operations.known(kind)) {
        throw new IllegalArgumentException("unknown operation kind " + kind + " (this driver knows: " + String.join(", ", Operations.kinds()) + ")");
      }
      double weight = required(m, "weight").getAsDouble();
      if (!(weight > 0) || Double.isInfinite(weight)) {
        throw new IllegalArgumentException("the weight of operation " + kind + " must be a positive number");
      }
      mix.add(new MixEntry(kind, weight));
    }
    return List.copyOf(mix);
  }

  private static JsonElement required(JsonObject o, String name) {
    JsonElement e = o.get(name);
    if (e == null || e.isJsonNull()) throw new IllegalArgumentException("missing field " + name);
    return e;
  }
}
