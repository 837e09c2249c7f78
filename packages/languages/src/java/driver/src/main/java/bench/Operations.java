package bench;

import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.Key;
import com.google.cloud.spanner.ReadOnlyTransaction;
import com.google.cloud.spanner.ResultSet;
import com.google.cloud.spanner.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;

/**
 * How each operation kind of the protocol (OPERATIONS in packages/shared/src/spec.ts) runs on a
 * google-cloud-spanner DatabaseClient: one entry per kind, so adding an operation is adding an entry.
 */
final class Operations {
  /** One operation: returns when it is done, throws when it failed. */
  interface Operation {
    void run() throws Exception;
  }

  // The statements and data are the catalogue's (Contract, generated): the fake knows them by text.
  private static final Statement SELECT1 = Statement.of(Contract.SQL_SELECT1);

  private static long playerId() {
    return 1 + ThreadLocalRandom.current().nextInt(Contract.PLAYERS);
  }

  private static void drain(ResultSet rs) {
    try (rs) {
      while (rs.next()) {}
    }
  }

  private static final Map<String, BiFunction<DatabaseClient, Protocol.DriverCell, Operation>> KINDS = new LinkedHashMap<>();

  static {
    // A single-use read-only query, every row read.
    KINDS.put(
        "select1",
        (client, cell) ->
            () -> {
              try (ResultSet rs = client.singleUse().executeQuery(SELECT1)) {
                while (rs.next()) {}
              }
            });
    // A read-only transaction running the leaderboard query.
    KINDS.put(
        "readOnlyTxn",
        (client, cell) ->
            () -> {
              try (ReadOnlyTransaction tx = client.readOnlyTransaction()) {
                drain(tx.executeQuery(Statement.newBuilder(Contract.SQL_LEADERBOARD).bind("Id").to(playerId()).build()));
              }
            });
    // A read-write transaction: read the player (a streaming query, what an abort hits), insert a score
    // with the commit timestamp, commit. The client retries it whole when it is aborted.
    KINDS.put(
        "readWriteTxn",
        (client, cell) ->
            () ->
                client
                    .readWriteTransaction()
                    .run(
                        tx -> {
                          long id = playerId();
                          drain(tx.executeQuery(Statement.newBuilder(Contract.SQL_PLAYER).bind("playerId").to(id).build()));
                          tx.executeUpdate(
                              Statement.newBuilder(Contract.SQL_INSERT_SCORE)
                                  .bind("playerId")
                                  .to(id)
                                  .bind("score")
                                  .to(ThreadLocalRandom.current().nextLong(100_000))
                                  .build());
                          return null;
                        }));
    // A single-use read of one Players row by key.
    KINDS.put("pointRead", (client, cell) -> () -> client.singleUse().readRow("Players", Key.of(playerId()), Contract.PLAYER_COLUMNS));
    // A single-use query of the workload's result set, its values decoded and checked (Scan.java).
    KINDS.put(
        "scan",
        (client, cell) -> {
          if (cell.resultSet() == null) throw new IllegalArgumentException("scan needs the cell's resultSet");
          return Scan.of(client, cell.resultSet(), cell.client().version());
        });
  }

  private Operations() {}

  static boolean known(String kind) {
    return KINDS.containsKey(kind);
  }

  /** The kinds this driver runs, in the order they were added. */
  static Set<String> kinds() {
    return KINDS.keySet();
  }

  /** The operation of `kind` on `client`, as `cell` describes it (the scan's result set). */
  static Operation of(String kind, DatabaseClient client, Protocol.DriverCell cell) {
    BiFunction<DatabaseClient, Protocol.DriverCell, Operation> f = KINDS.get(kind);
    if (f == null) throw new IllegalArgumentException("unknown operation kind " + kind);
    return f.apply(client, cell);
  }
}
