package bench;

import com.google.gson.JsonObject;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The warm-up and measured phases of a cell, as packages/languages/src/node/driver/load.ts does them
 * for Node: the cell's load shape ({@link Shape}) issues operations until the phase's budget (an
 * operation count or a duration) or the cost cap ({@link CostCap}) is used up; each one is picked from
 * the weighted mix ({@link Mix}) and recorded ({@link PhaseRecorder}).
 */
final class LoadLoop {
  private final Shape shape;
  private final ScheduledExecutorService ticker;
  private final Output out;
  private final Mix mix;
  private final CostCap cap;
  private final Supplier<JsonObject> pool;

  /** `operations` holds the operation of every kind of `mix`; `cap` and `pool` may be null. */
  LoadLoop(Shape shape, ScheduledExecutorService ticker, Output out, List<Protocol.OperationMixEntry> mix,
      Map<String, Operations.Operation> operations, Protocol.Cap cap, Supplier<JsonObject> pool) {
    this.shape = shape;
    this.ticker = ticker;
    this.out = out;
    this.mix = new Mix(mix, operations);
    this.cap = new CostCap(cap);
    this.pool = pool;
  }

  /** Runs the warm-up operations, then the measured phase; returns the result message. */
  JsonObject run(Protocol.Load load) throws InterruptedException {
    if (load.warmupOps() > 0) new Phase("warmup", load.warmupOps(), null).run();
    long gc0 = gcMillis();
    JsonObject result = new Phase("measure", load.measuredOps(), load.durationMs()).run();
    result.addProperty("gcMs", gcMillis() - gc0);
    if (cap.hit() != null) result.addProperty("capped", cap.hit());
    result.addProperty("sessionsCreated", SessionCount.created());
    long peak = peakRssBytes();
    if (peak > 0) result.addProperty("peakRssBytes", peak);
    return result;
  }

  /** The collectors' total collection time so far, ms (a collector that does not say counts 0). */
  private static long gcMillis() {
    long ms = 0;
    for (java.lang.management.GarbageCollectorMXBean gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      ms += Math.max(0, gc.getCollectionTime());
    }
    return ms;
  }

  /** The process's peak resident memory (VmHWM of /proc/self/status), bytes; 0 where the kernel does not say. */
  private static long peakRssBytes() {
    try {
      for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    } catch (java.io.IOException | NumberFormatException e) {
      return 0;
    }
    return 0;
  }

  private final class Phase {
    final String name;
    final boolean measured;
    final Long total;
    final long startNanos = System.nanoTime();
    final long endNanos;
    final AtomicLong started = new AtomicLong();
    final LongAdder done = new LongAdder();
    final PhaseRecorder rec;
    boolean closed;

    Phase(String name, Long ops, Double ms) {
      this.name = name;
      this.measured = name.equals("measure");
      this.total = ops;
      this.endNanos = ms == null ? Long.MAX_VALUE : startNanos + (long) (ms * 1_000_000);
      this.rec = new PhaseRecorder(name, measured, mix.kinds, pool, shape.open());
    }

    JsonObject run() throws InterruptedException {
      long cpu0 = processCpuNanos();
      ServerTiming.sink = (us, k) -> rec.serverTiming(us, k);
      int scan = java.util.Arrays.asList(mix.kinds).indexOf("scan");
      Scan.sink = scan < 0 ? null : (first, last) -> rec.rowTimes(scan, first, last);
      progress();
      ScheduledFuture<?> tick = ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
      shape.run(this::take, this::runOne, () -> endNanos == Long.MAX_VALUE ? Long.MAX_VALUE : endNanos - System.nanoTime(), rec);
      tick.cancel(false);
      double elapsedMs = (System.nanoTime() - startNanos) / 1e6;
      long cpuNanos = processCpuNanos() - cpu0;
      synchronized (this) {
        closed = true;
        rec.closeSecond(true);
      }
      progress();
      return measured ? rec.result(elapsedMs, cpuNanos) : null;
    }

    /** Claims one operation of the budget; false once it is spent. */
    private boolean take() {
      boolean budget = total != null ? started.getAndIncrement() < total : System.nanoTime() < endNanos;
      return budget && cap.take();
    }

    private void runOne(long intendedNanos) {
      int k = mix.pick();
      long s = System.nanoTime();
      ServerTiming.KIND.set(k);
      try {
        mix.ops[k].run();
        long e = System.nanoTime();
        rec.success(k, (e - intendedNanos) / 1000, (e - s) / 1000);
      } catch (Exception e) {
        rec.failure(k, e);
      }
      done.increment();
    }

    private synchronized void tick() {
      if (closed) return;
      rec.closeSecond(false);
      progress();
    }

    private void progress() {
      double ms = (System.nanoTime() - startNanos) / 1e6;
      long n = done.sum();
      out.progress(name, n, total, ms, n * 1000.0 / Math.max(1, ms));
    }
  }

  /** CPU time of the whole process (all threads, the client's included), in ns. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
