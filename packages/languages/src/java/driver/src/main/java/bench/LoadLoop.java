package bench;

import com.google.cloud.spanner.SpannerException;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Closed-loop load, as apps/runner/src/drivers/loop.ts does it for Node: `concurrency` threads each
 * run the operation back to back until the phase's budget (an operation count or a duration) is
 * used up. Latencies are microseconds in HDR histograms of the same shape as the Node side's.
 */
final class LoadLoop {
  /** Same shape as newLatencyHistogram() in packages/shared: 1 us .. 1 h, 3 significant digits. */
  static final long LOWEST = 1;
  static final long HIGHEST = 3_600_000_000L;
  static final int DIGITS = 3;

  interface Operation {
    void run() throws Exception;
  }

  private final ExecutorService workers;
  private final int concurrency;
  private final ScheduledExecutorService ticker;
  private final Output out;
  private final Operation op;

  /** `workers` must hold `concurrency` threads: one closed loop each. */
  LoadLoop(ExecutorService workers, int concurrency, ScheduledExecutorService ticker, Output out, Operation op) {
    this.workers = workers;
    this.concurrency = concurrency;
    this.ticker = ticker;
    this.out = out;
    this.op = op;
  }

  /** Runs the warm-up operations, then the measured phase; returns the result message. */
  JsonObject run(long warmupOps, Long measuredOps, Double durationMs) throws InterruptedException {
    if (warmupOps > 0) new Phase("warmup", warmupOps, null).run();
    return new Phase("measure", measuredOps, durationMs).run();
  }

  private final class Phase {
    final String name;
    final boolean measured;
    final Long total;
    final long startNanos = System.nanoTime();
    long secondStartNanos = startNanos;
    final long endNanos;
    final AtomicLong started = new AtomicLong();
    final LongAdder done = new LongAdder();
    final Recorder recorder = new Recorder(LOWEST, HIGHEST, DIGITS);
    final Histogram all = new Histogram(LOWEST, HIGHEST, DIGITS);
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    final AtomicLong secondErrors = new AtomicLong();
    final List<JsonObject> timeline = new ArrayList<>();
    Histogram interval; // recycled by the recorder
    boolean closed;

    Phase(String name, Long ops, Double ms) {
      this.name = name;
      this.measured = name.equals("measure");
      this.total = ops;
      this.endNanos = ms == null ? Long.MAX_VALUE : startNanos + (long) (ms * 1_000_000);
    }

    JsonObject run() throws InterruptedException {
      long cpu0 = processCpuNanos();
      progress();
      ScheduledFuture<?> tick = ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
      // All threads wait at a gate and start together: a cold client's first traffic must be one burst
      // at the target concurrency (the PR used virtual threads; platform threads start one by one).
      CountDownLatch ready = new CountDownLatch(concurrency);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> loops = new ArrayList<>();
      for (int i = 0; i < concurrency; i++) {
        loops.add(workers.submit(() -> {
          ready.countDown();
          try {
            go.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          loop();
        }));
      }
      ready.await();
      go.countDown();
      for (Future<?> f : loops) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IllegalStateException("a load thread died", e.getCause());
        }
      }
      tick.cancel(false);
      double elapsedMs = (System.nanoTime() - startNanos) / 1e6;
      long cpuNanos = processCpuNanos() - cpu0;
      synchronized (this) {
        closed = true;
        closeSecond(true);
      }
      progress();
      return measured ? result(elapsedMs, cpuNanos) : null;
    }

    private void loop() {
      while (total != null ? started.getAndIncrement() < total : System.nanoTime() < endNanos) {
        long s = System.nanoTime();
        try {
          op.run();
          recorder.recordValue(Math.min(HIGHEST, Math.max(LOWEST, (System.nanoTime() - s) / 1000)));
        } catch (Exception e) {
          String code = codeName(e);
          LongAdder fresh = new LongAdder();
          LongAdder seen = errors.putIfAbsent(code, fresh);
          if (seen == null) System.err.println("driver: first " + code + " error in " + name + ": " + e);
          (seen == null ? fresh : seen).increment();
          secondErrors.incrementAndGet();
        }
        done.increment();
      }
    }

    private synchronized void tick() {
      if (closed) return;
      closeSecond(false);
      progress();
    }

    /** Moves the last second's latencies into the phase total and, when measuring, the timeline. */
    private void closeSecond(boolean last) {
      long now = System.nanoTime();
      double bucketMs = (now - secondStartNanos) / 1e6; // the last bucket is a partial second
      secondStartNanos = now;
      interval = recorder.getIntervalHistogram(interval);
      long errs = secondErrors.getAndSet(0);
      all.add(interval);
      long count = interval.getTotalCount();
      if (!measured || (last && count == 0 && errs == 0)) return;
      JsonObject p = new JsonObject();
      p.addProperty("second", timeline.size() + 1);
      p.addProperty("count", count);
      p.addProperty("errors", errs);
      p.addProperty("p99Ms", count > 0 ? interval.getValueAtPercentile(99) / 1000.0 : 0);
      p.addProperty("ms", bucketMs);
      timeline.add(p);
    }

    private void progress() {
      double ms = (System.nanoTime() - startNanos) / 1e6;
      long n = done.sum();
      out.progress(name, n, total, ms, n * 1000.0 / Math.max(1, ms));
    }

    private JsonObject result(double elapsedMs, long cpuNanos) {
      JsonObject r = new JsonObject();
      r.addProperty("type", "result");
      r.addProperty("count", all.getTotalCount());
      JsonObject errs = new JsonObject();
      new TreeMap<>(errors).forEach((k, v) -> errs.addProperty(k, v.sum()));
      r.add("errors", errs);
      r.addProperty("elapsedMs", Output.round(elapsedMs));
      r.addProperty("histogram", encode(all));
      JsonArray t = new JsonArray();
      timeline.forEach(t::add);
      r.add("timeline", t);
      r.addProperty("cpuMs", Output.round(cpuNanos / 1e6));
      return r;
    }
  }

  /** The compressed form hdr-histogram-js decodeFromCompressedBase64 reads, as base64. */
  static String encode(Histogram h) {
    ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int length = h.encodeIntoCompressedByteBuffer(buf);
    return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), length));
  }

  /** The gRPC status code name of a failure; CLIENT_ERROR when it is not a gRPC error. */
  static String codeName(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SpannerException) return ((SpannerException) t).getErrorCode().getGrpcStatusCode().name();
      if (t instanceof StatusRuntimeException) return ((StatusRuntimeException) t).getStatus().getCode().name();
      if (t instanceof StatusException) return ((StatusException) t).getStatus().getCode().name();
    }
    return "CLIENT_ERROR";
  }

  /** CPU time of the whole process (all threads, the client's included), in ns. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }
}
