package bench;

import com.google.cloud.spanner.DatabaseClient;
import com.google.gson.JsonObject;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The session pool figures of a Java client, read at the end of each measured second. The pool is
 * package-private (DatabaseClientImpl.pool, a SessionPool, in versions that have one), so its own
 * accessors are called by reflection; each takes the pool's lock for a moment.
 */
final class PoolSampler {
  /** Figure name -> SessionPool method (no arguments, int result), as 6.104.0 names them. */
  private static final Map<String, String> FIGURES = new LinkedHashMap<>();

  static {
    FIGURES.put("in_use", "getNumberOfSessionsInUse");
    FIGURES.put("in_pool", "getNumberOfSessionsInPool");
    FIGURES.put("being_created", "getNumberOfSessionsBeingCreated");
    FIGURES.put("total", "totalSessions");
    FIGURES.put("waiting", "numWaiters");
  }

  private PoolSampler() {}

  /** A sampler of the client's pool, or null where the version has no pool (or names it otherwise). */
  static Supplier<JsonObject> of(DatabaseClient client) {
    Object pool;
    try {
      Field f = client.getClass().getDeclaredField("pool");
      f.setAccessible(true);
      pool = f.get(client);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
    if (pool == null) return null;
    Map<String, Method> methods = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : FIGURES.entrySet()) {
      Method m = ClientFactory.find(pool.getClass(), e.getValue());
      if (m == null) return null;
      methods.put(e.getKey(), m);
    }
    return () -> {
      JsonObject o = new JsonObject();
      try {
        for (Map.Entry<String, Method> e : methods.entrySet()) o.addProperty(e.getKey(), ((Number) e.getValue().invoke(pool)).longValue());
      } catch (ReflectiveOperationException | RuntimeException e) {
        return null;
      }
      return o;
    };
  }
}
