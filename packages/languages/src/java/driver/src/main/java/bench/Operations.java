package bench;

import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.ResultSet;
import com.google.cloud.spanner.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * How each operation kind of the protocol (OPERATIONS in packages/shared/src/spec.ts) runs on a
 * google-cloud-spanner DatabaseClient: one entry per kind, so adding an operation is adding an entry.
 */
final class Operations {
  /** One operation: returns when it is done, throws when it failed. */
  interface Operation {
    void run() throws Exception;
  }

  private static final Statement SELECT1 = Statement.of("SELECT 1");

  private static final Map<String, Function<DatabaseClient, Operation>> KINDS = new LinkedHashMap<>();

  static {
    // A single-use read-only query, every row read.
    KINDS.put(
        "select1",
        client ->
            () -> {
              try (ResultSet rs = client.singleUse().executeQuery(SELECT1)) {
                while (rs.next()) {}
              }
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

  /** The operation of `kind` on `client`. */
  static Operation of(String kind, DatabaseClient client) {
    Function<DatabaseClient, Operation> f = KINDS.get(kind);
    if (f == null) throw new IllegalArgumentException("unknown operation kind " + kind);
    return f.apply(client);
  }
}
