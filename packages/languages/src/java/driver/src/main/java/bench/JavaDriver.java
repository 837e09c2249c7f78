package bench;

import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.Spanner;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The Java driver: one JVM, one fresh google-cloud-spanner client, one cell (docs/architecture.md,
 * "Driver protocol"). Reads the cell as JSON on stdin, writes JSON lines on stdout, exits by itself.
 * Exit codes: 0 done, 2 failed, 3 deadline reached, 4 option not supported by this version, 5 a scan
 * decoded values that differ from the result (Scan.java).
 */
public final class JavaDriver {
  public static void main(String[] args) {
    Output out = new Output();
    // The client logs at INFO to stderr; keep stderr for warnings and our own sentences.
    Logger.getLogger("").setLevel(Level.WARNING);
    Protocol.DriverCell cell;
    try {
      cell = Cell.parse(new String(System.in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      fail("driver: bad cell spec: " + e.getMessage(), 2);
      return;
    }
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(daemon("ticker"));
    // The deadline counts from JVM start, like the runner's clock for this process.
    long left = (long) cell.deadlineMs() - ManagementFactory.getRuntimeMXBean().getUptime();
    ticker.schedule(
        () -> fail("driver: deadline of " + (long) cell.deadlineMs() + " ms reached before the cell finished", 3),
        Math.max(0, left), TimeUnit.MILLISECONDS);
    try {
      run(cell, out, ticker);
    } catch (ClientFactory.UnsupportedOption e) {
      fail(e.getMessage(), 4);
    } catch (Throwable e) {
      e.printStackTrace();
      fail("driver: the cell failed: " + e, 2);
    }
  }

  private static void run(Protocol.DriverCell cell, Output out, ScheduledExecutorService ticker) throws InterruptedException {
    long t0 = System.nanoTime();
    Runnable connecting = () -> out.progress("connecting", 0, null, (System.nanoTime() - t0) / 1e6, 0);
    connecting.run();
    // Class loading and client start can take a while in a cold JVM: keep reporting.
    var connectingTicks = ticker.scheduleAtFixedRate(connecting, 1, 1, TimeUnit.SECONDS);
    ChannelCounts channels = new ChannelCounts();
    Spanner spanner = ClientFactory.create(cell, channels);
    Protocol.Database db = cell.database();
    DatabaseClient client = spanner.getDatabaseClient(DatabaseId.of(db.projectId(), db.instanceId(), db.databaseId()));
    connectingTicks.cancel(false);

    Map<String, Operations.Operation> operations = new LinkedHashMap<>();
    for (Protocol.OperationMixEntry m : cell.operations()) operations.computeIfAbsent(m.kind(), k -> Operations.of(k, client, cell));
    try (Shape shape = Shape.of(cell.load(), daemon("load"))) {
      JsonObject result = new LoadLoop(shape, ticker, out, cell.operations(), operations, cell.cap(), PoolSampler.of(client))
          .run(cell.load());
      result.add("clientChannels", channels.toJson());
      out.emit(result);
    }

    ClientFactory.closeThenHalt(spanner);
  }

  /** Final stderr line is the sentence the runner shows; then leave without waiting for anything. */
  private static void fail(String message, int code) {
    System.err.println(message);
    System.err.flush();
    Runtime.getRuntime().halt(code);
  }

  private static ThreadFactory daemon(String prefix) {
    return new ThreadFactory() {
      private int n;

      @Override
      public synchronized Thread newThread(Runnable r) {
        Thread t = new Thread(r, prefix + "-" + ++n);
        t.setDaemon(true);
        return t;
      }
    };
  }
}
