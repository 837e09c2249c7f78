package bench;

import com.google.gson.JsonObject;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/** HDR histograms of the protocol: latencies in microseconds, and how they are written out. */
final class Hdr {
  /** Same shape as newLatencyHistogram() in packages/shared: 1 us .. 1 h, 3 significant digits. */
  static final long LOWEST = 1;
  static final long HIGHEST = 3_600_000_000L;
  static final int DIGITS = 3;

  private Hdr() {}

  static Histogram histogram() {
    return new Histogram(LOWEST, HIGHEST, DIGITS);
  }

  static Recorder recorder() {
    return new Recorder(LOWEST, HIGHEST, DIGITS);
  }

  /** A value clamped into the histogram's range. */
  static long clamp(long us) {
    return Math.min(HIGHEST, Math.max(LOWEST, us));
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
    return Base64.getEncoder().encodeToString(Arrays.copyOf(buf.array(), length));
  }
}
