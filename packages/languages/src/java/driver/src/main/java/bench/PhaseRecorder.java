package bench;

import com.google.cloud.spanner.SpannerException;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What one phase records: latencies and errors per operation kind, each second of the measured phase
 * (the timeline, with the client's session pool where it can be read), and the result message.
 */
final class PhaseRecorder {
  /** Latencies and errors of one operation kind in one phase. */
  private static final class KindStats {
    final Recorder recorder = Hdr.recorder();
    final Histogram all = Hdr.histogram();
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    Histogram interval; // recycled by the recorder
    /** The server-timing header's time of each RPC of this kind (ServerTiming), microseconds. */
    final Recorder serverTiming = Hdr.recorder();
    /** A scan's times from its start to its first row and to its last (Scan), microseconds. */
    final Recorder firstRow = Hdr.recorder();
    final Recorder lastRow = Hdr.recorder();
  }

  private final String phase;
  private final boolean measured;
  private final String[] kinds;
  private final KindStats[] byKind;
  /** The client's session pool figures, or null where it has none to read. */
  private final Supplier<JsonObject> pool;
  private long secondStartNanos = System.nanoTime();
  /** The running second over every kind, and the phase total: the sums of the kinds' histograms. */
  private final Histogram second = Hdr.histogram();
  private final Histogram all = Hdr.histogram();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final AtomicLong secondErrors = new AtomicLong();
  private final List<JsonObject> timeline = new ArrayList<>();
  /** An open loop's: latencies from the actual start, the driver's lag, the line at the outstanding cap; null for a closed loop. */
  private final Recorder uncorrected;
  private final Recorder lag;
  private final LongAdder capWaits = new LongAdder();
  private final AtomicLong secondWaiting = new AtomicLong();

  PhaseRecorder(String phase, boolean measured, String[] kinds, Supplier<JsonObject> pool, boolean open) {
    this.phase = phase;
    this.measured = measured;
    this.kinds = kinds;
    this.pool = pool;
    this.uncorrected = open ? Hdr.recorder() : null;
    this.lag = open ? Hdr.recorder() : null;
    byKind = new KindStats[kinds.length];
    for (int k = 0; k < kinds.length; k++) byKind[k] = new KindStats();
  }

  /** `micros` from the operation's intended start; `uncorrectedMicros` from its actual one (an open loop's). */
  void success(int kind, long micros, long uncorrectedMicros) {
    byKind[kind].recorder.recordValue(Hdr.clamp(micros));
    if (uncorrected != null) uncorrected.recordValue(Hdr.clamp(uncorrectedMicros));
  }

  /** An open loop started an operation this late against its intended time (one that did not wait for the cap). */
  void late(long micros) {
    lag.recordValue(Hdr.clamp(micros));
  }

  /** `n` operations wait for the outstanding cap; `arrived`: one more joined them. */
  void waiting(int n, boolean arrived) {
    if (arrived) capWaits.increment();
    secondWaiting.accumulateAndGet(n, Math::max);
  }

  void failure(int kind, Exception e) {
    String code = codeName(e);
    LongAdder fresh = new LongAdder();
    LongAdder seen = errors.putIfAbsent(code, fresh);
    if (seen == null) System.err.println("driver: first " + code + " error in " + phase + ": " + e);
    (seen == null ? fresh : seen).increment();
    byKind[kind].errors.computeIfAbsent(code, c -> new LongAdder()).increment();
    secondErrors.incrementAndGet();
  }

  /** The server-timing header's time of one RPC of the kind, microseconds. */
  void serverTiming(long micros, int kind) {
    byKind[kind].serverTiming.recordValue(Hdr.clamp(micros));
  }

  /** One scan's times from its start to its first row and to its last, microseconds. */
  void rowTimes(int kind, long firstMicros, long lastMicros) {
    byKind[kind].firstRow.recordValue(Hdr.clamp(firstMicros));
    byKind[kind].lastRow.recordValue(Hdr.clamp(lastMicros));
  }

  /** Moves the last second's latencies into the totals (per kind and all) and, when measuring, the timeline. */
  void closeSecond(boolean last) {
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
    long waiting = secondWaiting.getAndSet(0);
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
    if (lag != null) p.addProperty("waiting", waiting);
    timeline.add(p);
  }

  /** The protocol's result message of the phase, its totals and one entry per kind of the mix. */
  JsonObject result(double elapsedMs, long cpuNanos) {
    JsonObject r = Hdr.counts(all, errors);
    r.addProperty("type", "result");
    r.addProperty("elapsedMs", Output.round(elapsedMs));
    JsonArray t = new JsonArray();
    timeline.forEach(t::add);
    r.add("timeline", t);
    r.addProperty("cpuMs", Output.round(cpuNanos / 1e6));
    // The kinds add up to the totals above.
    JsonObject operations = new JsonObject();
    for (int k = 0; k < kinds.length; k++) {
      JsonObject kind = Hdr.counts(byKind[k].all, byKind[k].errors);
      Histogram timing = byKind[k].serverTiming.getIntervalHistogram();
      if (timing.getTotalCount() > 0) {
        JsonObject header = new JsonObject();
        header.addProperty("rpcs", timing.getTotalCount());
        header.addProperty("histogram", Hdr.encode(timing));
        kind.add("serverTiming", header);
      }
      Histogram first = byKind[k].firstRow.getIntervalHistogram();
      if (first.getTotalCount() > 0) {
        JsonObject rows = new JsonObject();
        rows.addProperty("firstRow", Hdr.encode(first));
        rows.addProperty("lastRow", Hdr.encode(byKind[k].lastRow.getIntervalHistogram()));
        kind.add("rowTimes", rows);
      }
      operations.add(kinds[k], kind);
    }
    r.add("operations", operations);
    if (lag != null) {
      r.add("uncorrected", histogramObject(uncorrected.getIntervalHistogram()));
      r.add("scheduleLag", histogramObject(lag.getIntervalHistogram()));
      r.addProperty("outstandingCapWaits", capWaits.sum());
    }
    return r;
  }

  private static JsonObject histogramObject(Histogram h) {
    JsonObject o = new JsonObject();
    o.addProperty("histogram", Hdr.encode(h));
    return o;
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
}
