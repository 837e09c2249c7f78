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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The warm-up and measured phases of a cell, as packages/languages/src/node/driver/load.ts does them
 * for Node: the cell's load shape issues operations until the phase's budget (an operation count or a
 * duration) is used up; each one is picked from the weighted operation mix. Latencies are microseconds
 * in HDR histograms of the same shape as the Node side's, per operation kind and in total.
 */
final class LoadLoop {
  /** Same shape as newLatencyHistogram() in packages/shared: 1 us .. 1 h, 3 significant digits. */
  static final long LOWEST = 1;
  static final long HIGHEST = 3_600_000_000L;
  static final int DIGITS = 3;

  /**
   * A load shape: how operations are issued until a phase's budget is used up. `take` claims one
   * operation of the budget and is false once it is spent; `runOne` runs one operation of the mix and
   * records it (it never throws). One implementation per shape of the protocol; see {@link #shape}.
   */
  interface Shape extends AutoCloseable {
    /** Issues operations while `take` grants them; returns once every issued operation is done. */
    void run(BooleanSupplier take, Runnable runOne, LongSupplier untilEndNanos) throws InterruptedException;

    /** Releases the shape's threads; called once, after the last phase. */
    @Override
    void close();
  }

  /** The shape of the cell's load, its threads made by `threads`. */
  static Shape shape(Cell.Load load, ThreadFactory threads) {
    if (load instanceof Cell.ClosedLoad closed) return new ClosedLoop(closed.concurrency(), closed.thinkTime(), threads);
    throw new IllegalArgumentException("no load shape for " + load);
  }

  /**
   * `concurrency` loops, each running operations back to back, on a fixed pool of platform threads
   * (one loop each) reused from warm-up to measurement.
   */
  static final class ClosedLoop implements Shape {
    private final int concurrency;
    private final Cell.ThinkTime think;
    private final ExecutorService workers;

    ClosedLoop(int concurrency, Cell.ThinkTime think, ThreadFactory threads) {
      this.concurrency = concurrency;
      this.think = think;
      this.workers = Executors.newFixedThreadPool(concurrency, threads);
    }

    /** The pause before an operation, in nanoseconds. */
    private long thinkNanos() {
      if (think == null) return 0;
      double ms = think.exponential() ? -Math.log(1 - ThreadLocalRandom.current().nextDouble()) * think.ms() : think.ms();
      return (long) (ms * 1_000_000);
    }

    @Override
    public void run(BooleanSupplier take, Runnable runOne, LongSupplier untilEndNanos) throws InterruptedException {
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
          while (take.getAsBoolean()) {
            // A think time past a timed phase's end is cut there and its operation not run.
            long pause = thinkNanos();
            long left = untilEndNanos.getAsLong();
            boolean last = pause >= left;
            if (last) pause = left;
            if (pause > 0) {
              try {
                TimeUnit.NANOSECONDS.sleep(pause);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
              }
            }
            if (last) break;
            runOne.run();
          }
        }));
      }
      ready.await();
      go.countDown();
      for (Future<?> f : loops) {
        try {
          f.get();
        } catch (ExecutionException e) {
          throw new IllegalStateException("a load thread died", e.getCause());
        }
      }
    }

    @Override
    public void close() {
      workers.shutdownNow();
    }
  }

  private final Shape shape;
  private final ScheduledExecutorService ticker;
  private final Output out;
  /** The distinct operation kinds of the mix, in mix order, and their operations. */
  private final String[] kinds;
  private final Operations.Operation[] ops;
  /** Per mix entry: its weight and the index of its kind in `kinds`. */
  private final double[] weights;
  private final int[] entryKind;
  private final double totalWeight;
  /** The cell's cost cap over both phases (null: none), what it has counted, and what it stopped. */
  private final Cell.Cap cap;
  /** The client's session pool figures, or null where it has none to read. */
  private final Supplier<JsonObject> pool;
  private final AtomicLong capStarted = new AtomicLong();
  /** When the first operation was claimed (0: none yet); the time cap counts from there, as Node's does. */
  private final AtomicLong capStartNanos = new AtomicLong();
  /** The first limit reached wins: loops refused by both at once must not overwrite each other. */
  private final AtomicReference<String> capped = new AtomicReference<>();

  /** `operations` holds the operation of every kind of `mix`; `cap` may be null. */
  LoadLoop(Shape shape, ScheduledExecutorService ticker, Output out, List<Cell.MixEntry> mix,
      Map<String, Operations.Operation> operations, Cell.Cap cap, Supplier<JsonObject> pool) {
    this.shape = shape;
    this.pool = pool;
    this.cap = cap;
    this.ticker = ticker;
    this.out = out;
    Map<String, Integer> index = new LinkedHashMap<>();
    weights = new double[mix.size()];
    entryKind = new int[mix.size()];
    double sum = 0;
    for (int i = 0; i < mix.size(); i++) {
      Cell.MixEntry m = mix.get(i);
      entryKind[i] = index.computeIfAbsent(m.kind(), k -> index.size());
      weights[i] = m.weight();
      sum += m.weight();
    }
    totalWeight = sum;
    kinds = index.keySet().toArray(new String[0]);
    ops = new Operations.Operation[kinds.length];
    for (int k = 0; k < kinds.length; k++) {
      ops[k] = operations.get(kinds[k]);
      if (ops[k] == null) throw new IllegalArgumentException("no operation for kind " + kinds[k]);
    }
  }

  /** Runs the warm-up operations, then the measured phase; returns the result message. */
  JsonObject run(Cell.Load load) throws InterruptedException {
    if (load.warmupOps() > 0) new Phase("warmup", load.warmupOps(), null).run();
    JsonObject result = new Phase("measure", load.measuredOps(), load.durationMs()).run();
    if (capped.get() != null) result.addProperty("capped", capped.get());
    result.addProperty("sessionsCreated", SessionCount.created());
    return result;
  }

  /** Claims one operation of the cost cap; false (and which limit) once it is reached. */
  private boolean takeCap() {
    if (cap == null) return true;
    long now = System.nanoTime();
    // Not at construction or phase start: thread start-up in a cold JVM is not the cell's time.
    if (capStartNanos.get() == 0) capStartNanos.compareAndSet(0, now);
    if (capped.get() != null) return false;
    // Ops first, as Node's Cap: a count reached before the time ran out is what stopped the cell.
    if (capStarted.getAndIncrement() >= cap.ops()) {
      capped.compareAndSet(null, "ops");
      return false;
    }
    if (now - capStartNanos.get() >= (long) (cap.ms() * 1_000_000)) {
      capped.compareAndSet(null, "time");
      return false;
    }
    if (cap.sessions() != null && SessionCount.created() >= cap.sessions()) {
      capped.compareAndSet(null, "sessions");
      return false;
    }
    return true;
  }

  /** The index of a kind picked with probability weight / total weight. */
  private int pick() {
    if (entryKind.length == 1) return entryKind[0];
    double r = ThreadLocalRandom.current().nextDouble() * totalWeight;
    for (int i = 0; i < weights.length; i++) {
      if ((r -= weights[i]) < 0) return entryKind[i];
    }
    return entryKind[entryKind.length - 1];
  }

  /** Latencies and errors of one operation kind in one phase. */
  private static final class KindStats {
    final Recorder recorder = new Recorder(LOWEST, HIGHEST, DIGITS);
    final Histogram all = new Histogram(LOWEST, HIGHEST, DIGITS);
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    Histogram interval; // recycled by the recorder
    /** The server-timing header's time of each RPC of this kind (ServerTiming), microseconds. */
    final Recorder serverTiming = new Recorder(LOWEST, HIGHEST, DIGITS);
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
    final KindStats[] byKind = new KindStats[kinds.length];
    /** The running second over every kind, and the phase total: the sums of the kinds' histograms. */
    final Histogram second = new Histogram(LOWEST, HIGHEST, DIGITS);
    final Histogram all = new Histogram(LOWEST, HIGHEST, DIGITS);
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    final AtomicLong secondErrors = new AtomicLong();
    final List<JsonObject> timeline = new ArrayList<>();
    boolean closed;

    Phase(String name, Long ops, Double ms) {
      this.name = name;
      this.measured = name.equals("measure");
      this.total = ops;
      this.endNanos = ms == null ? Long.MAX_VALUE : startNanos + (long) (ms * 1_000_000);
      for (int k = 0; k < byKind.length; k++) byKind[k] = new KindStats();
    }

    JsonObject run() throws InterruptedException {
      long cpu0 = processCpuNanos();
      ServerTiming.sink = (us, k) -> byKind[k].serverTiming.recordValue(Math.min(HIGHEST, Math.max(LOWEST, us)));
      progress();
      ScheduledFuture<?> tick = ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
      shape.run(this::take, this::runOne, () -> endNanos == Long.MAX_VALUE ? Long.MAX_VALUE : endNanos - System.nanoTime());
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

    /** Claims one operation of the budget; false once it is spent. */
    private boolean take() {
      boolean budget = total != null ? started.getAndIncrement() < total : System.nanoTime() < endNanos;
      return budget && takeCap();
    }

    private void runOne() {
      int k = pick();
      KindStats kind = byKind[k];
      long s = System.nanoTime();
      ServerTiming.KIND.set(k);
      try {
        ops[k].run();
        kind.recorder.recordValue(Math.min(HIGHEST, Math.max(LOWEST, (System.nanoTime() - s) / 1000)));
      } catch (Exception e) {
        String code = codeName(e);
        LongAdder fresh = new LongAdder();
        LongAdder seen = errors.putIfAbsent(code, fresh);
        if (seen == null) System.err.println("driver: first " + code + " error in " + name + ": " + e);
        (seen == null ? fresh : seen).increment();
        kind.errors.computeIfAbsent(code, c -> new LongAdder()).increment();
        secondErrors.incrementAndGet();
      }
      done.increment();
    }

    private synchronized void tick() {
      if (closed) return;
      closeSecond(false);
      progress();
    }

    /** Moves the last second's latencies into the totals (per kind and all) and, when measuring, the timeline. */
    private void closeSecond(boolean last) {
      long now = System.nanoTime();
      double bucketMs = (now - secondStartNanos) / 1e6; // the last bucket is a partial second
      secondStartNanos = now;
      second.reset();
      for (KindStats kind : byKind) {
        kind.interval = kind.recorder.getIntervalHistogram(kind.interval);
        kind.all.add(kind.interval);
        second.add(kind.interval);
      }
      long errs = secondErrors.getAndSet(0);
      all.add(second);
      long count = second.getTotalCount();
      if (!measured || (last && count == 0 && errs == 0)) return;
      JsonObject p = new JsonObject();
      p.addProperty("second", timeline.size() + 1);
      p.addProperty("count", count);
      p.addProperty("errors", errs);
      p.addProperty("p99Ms", count > 0 ? second.getValueAtPercentile(99) / 1000.0 : 0);
      p.addProperty("ms", bucketMs);
      JsonObject sample = pool == null ? null : pool.get();
      if (sample != null) p.add("pool", sample);
      timeline.add(p);
    }

    private void progress() {
      double ms = (System.nanoTime() - startNanos) / 1e6;
      long n = done.sum();
      out.progress(name, n, total, ms, n * 1000.0 / Math.max(1, ms));
    }

    private JsonObject result(double elapsedMs, long cpuNanos) {
      JsonObject r = counts(all, errors);
      r.addProperty("type", "result");
      r.addProperty("elapsedMs", Output.round(elapsedMs));
      JsonArray t = new JsonArray();
      timeline.forEach(t::add);
      r.add("timeline", t);
      r.addProperty("cpuMs", Output.round(cpuNanos / 1e6));
      // One entry per kind of the mix; they add up to the totals above.
      JsonObject operations = new JsonObject();
      for (int k = 0; k < kinds.length; k++) {
        JsonObject kind = counts(byKind[k].all, byKind[k].errors);
        Histogram timing = byKind[k].serverTiming.getIntervalHistogram();
        if (timing.getTotalCount() > 0) {
          JsonObject header = new JsonObject();
          header.addProperty("rpcs", timing.getTotalCount());
          header.addProperty("histogram", encode(timing));
          kind.add("serverTiming", header);
        }
        operations.add(kinds[k], kind);
      }
      r.add("operations", operations);
      return r;
    }
  }

  /** {count, errors, histogram}: successful operations, failures by gRPC code name, their latencies. */
  static JsonObject counts(Histogram h, Map<String, LongAdder> errors) {
    JsonObject r = new JsonObject();
    r.addProperty("count", h.getTotalCount());
    JsonObject errs = new JsonObject();
    new TreeMap<>(errors).forEach((k, v) -> errs.addProperty(k, v.sum()));
    r.add("errors", errs);
    r.addProperty("histogram", encode(h));
    return r;
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
