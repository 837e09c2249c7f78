package bench;

import com.google.cloud.Timestamp;
import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.Key;
import com.google.cloud.spanner.KeySet;
import com.google.cloud.spanner.Mutation;
import com.google.cloud.spanner.ReadOnlyTransaction;
import com.google.cloud.spanner.ResultSet;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerException;
import com.google.cloud.spanner.Statement;
import com.google.cloud.spanner.TransactionRunner;
import com.google.cloud.spanner.Value;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs the real google-cloud-spanner client through every transaction kind against one endpoint
 * (normally the bundled fake), to prove the fake serves the Java client: the Java twin of
 * test/integration/fake-node-client.test.ts. Reads {"host", "port", "version", "scenario", "deadlineMs"?} on
 * stdin, prints one JSON line with what it observed, exits 0; on failure the reason is the last
 * stderr line and the exit code is 2 (3 when the deadline is reached).
 *
 * <p>Scenarios: "transactions" (single-use query, read-only transaction with a query and a read,
 * read-write transaction with DML, a buffered mutation and batch DML) and "abort" (a read-write
 * transaction that only buffers an insert, whose attempts are counted: the caller makes the fake
 * abort its first commit).
 *
 * <p>It builds its client with the driver's ClientFactory for a default configuration (plaintext, no
 * credentials, no metrics). The test compiles it against the classpath of a client version
 * (ensureJavaClient: the driver's classes and the client's jars) and runs it on that classpath.
 */
public final class FakeConformance {
  static final String POINT_QUERY = "SELECT PlayerId, PlayerName FROM Players WHERE PlayerId = @playerId";
  static final String UPDATE = "UPDATE Players SET PlayerName = @playerName WHERE PlayerId = @playerId";
  static final List<String> PLAYER_COLUMNS = Arrays.asList("PlayerId", "PlayerName");

  public static void main(String[] args) {
    Logger.getLogger("").setLevel(Level.WARNING);
    JsonObject in;
    try {
      in = JsonParser.parseString(new String(System.in.readAllBytes(), StandardCharsets.UTF_8)).getAsJsonObject();
    } catch (Exception e) {
      fail("conformance: bad input: " + e.getMessage(), 2);
      return;
    }
    long deadlineMs = in.has("deadlineMs") ? in.get("deadlineMs").getAsLong() : 60_000;
    Thread watchdog =
        new Thread(
            () -> {
              try {
                Thread.sleep(deadlineMs);
                fail("conformance: deadline of " + deadlineMs + " ms reached", 3);
              } catch (InterruptedException e) {
                // finished in time
              }
            },
            "deadline");
    watchdog.setDaemon(true);
    watchdog.start();
    try {
      String version = in.get("version").getAsString();
      String scenario = in.get("scenario").getAsString();
      long t0 = System.nanoTime();
      // Every client default (grpc-gcp, channels, sessions) of this version stays.
      Spanner spanner = client(in.get("host").getAsString(), in.get("port").getAsInt());
      DatabaseClient client = spanner.getDatabaseClient(DatabaseId.of("p", "i", "d"));
      JsonObject out = new JsonObject();
      out.addProperty("version", version);
      out.addProperty("scenario", scenario);
      switch (scenario) {
        case "transactions" -> transactions(client, out);
        case "abort" -> abort(client, out);
        default -> throw new IllegalArgumentException("unknown scenario " + scenario);
      }
      out.addProperty("elapsedMs", Math.round((System.nanoTime() - t0) / 1e6));
      System.out.println(out);
      System.out.flush();
      ClientFactory.closeThenHalt(spanner);
    } catch (Throwable e) {
      e.printStackTrace();
      String code = e instanceof SpannerException ? " [" + ((SpannerException) e).getErrorCode() + "]" : "";
      fail("conformance: failed" + code + ": " + e, 2);
    }
  }

  private static void transactions(DatabaseClient client, JsonObject out) {
    long t = System.nanoTime();
    try (ResultSet rs = client.singleUse().executeQuery(Statement.of("SELECT 1"))) {
      if (!rs.next()) throw new IllegalStateException("SELECT 1 returned no row");
      out.addProperty("select1", rs.getLong(0));
    }
    out.addProperty("singleUseMs", ms(t));

    t = System.nanoTime();
    try (ReadOnlyTransaction ro = client.readOnlyTransaction()) {
      try (ResultSet rs = ro.executeQuery(Statement.newBuilder(POINT_QUERY).bind("playerId").to(7L).build())) {
        if (!rs.next()) throw new IllegalStateException("the point query for player 7 returned no row");
        out.addProperty("roQueryId", rs.getLong("PlayerId"));
        out.addProperty("roQueryName", rs.getString("PlayerName"));
      }
      try (ResultSet rs = ro.read("Players", KeySet.singleKey(Key.of(8L)), PLAYER_COLUMNS)) {
        if (!rs.next()) throw new IllegalStateException("the read of player 8 returned no row");
        out.addProperty("roReadId", rs.getLong("PlayerId"));
        out.addProperty("roReadName", rs.getString("PlayerName"));
      }
      Timestamp readTs = ro.getReadTimestamp();
      out.addProperty("roReadTimestamp", readTs == null ? null : readTs.toString());
    }
    out.addProperty("readOnlyMs", ms(t));

    t = System.nanoTime();
    AtomicInteger attempts = new AtomicInteger();
    TransactionRunner runner = client.readWriteTransaction();
    JsonObject rw =
        runner.run(
            tx -> {
              attempts.incrementAndGet();
              JsonObject r = new JsonObject();
              long count =
                  tx.executeUpdate(
                      Statement.newBuilder(UPDATE).bind("playerId").to(3L).bind("playerName").to("Renamed").build());
              r.addProperty("updateCount", count);
              tx.buffer(
                  Mutation.newInsertBuilder("Scores")
                      .set("PlayerId").to(3L)
                      .set("Timestamp").to(Value.COMMIT_TIMESTAMP)
                      .set("Score").to(42L)
                      .build());
              long[] batch =
                  tx.batchUpdate(
                      Arrays.asList(
                          Statement.newBuilder(UPDATE).bind("playerId").to(4L).bind("playerName").to("Batch 4").build(),
                          Statement.newBuilder(UPDATE).bind("playerId").to(5L).bind("playerName").to("Batch 5").build()));
              JsonArray counts = new JsonArray();
              for (long c : batch) counts.add(c);
              r.add("batchUpdateCounts", counts);
              return r;
            });
    out.addProperty("updateCount", rw.get("updateCount").getAsLong());
    out.add("batchUpdateCounts", rw.get("batchUpdateCounts"));
    out.addProperty("attempts", attempts.get());
    out.addProperty("commitTimestamp", String.valueOf(runner.getCommitTimestamp()));
    out.addProperty("readWriteMs", ms(t));
  }

  private static void abort(DatabaseClient client, JsonObject out) {
    long t = System.nanoTime();
    AtomicInteger attempts = new AtomicInteger();
    TransactionRunner runner = client.readWriteTransaction();
    runner.run(
        tx -> {
          attempts.incrementAndGet();
          tx.buffer(
              Mutation.newInsertBuilder("Players").set("PlayerId").to(5001L).set("PlayerName").to("Aborted once").build());
          return null;
        });
    out.addProperty("attempts", attempts.get());
    out.addProperty("commitTimestamp", String.valueOf(runner.getCommitTimestamp()));
    out.addProperty("readWriteMs", ms(t));
  }

  /** A fresh client of project "p" on a plaintext endpoint, without credentials or metrics. */
  /** The driver's own client factory, for a default configuration (the driver's classes are on the classpath). */
  private static Spanner client(String host, int port) {
    String cell =
        "{\"endpoint\":{\"host\":\"" + host + "\",\"port\":" + port + ",\"security\":\"plaintext\"},"
            + "\"database\":{\"projectId\":\"p\",\"instanceId\":\"i\",\"databaseId\":\"d\"},"
            + "\"client\":{\"language\":\"java\",\"version\":\"harness\"},\"configuration\":{\"label\":\"default\"},"
            + "\"load\":{\"shape\":\"closed\",\"concurrency\":1,\"warmupOps\":0,\"measuredOps\":1},"
            + "\"operations\":[{\"kind\":\"select1\",\"weight\":1}],\"deadlineMs\":60000}";
    return ClientFactory.create(Cell.parse(cell));
  }

  private static long ms(long since) {
    return Math.round((System.nanoTime() - since) / 1e6);
  }

  private static void fail(String message, int code) {
    System.err.println(message);
    System.err.flush();
    Runtime.getRuntime().halt(code);
  }
}
