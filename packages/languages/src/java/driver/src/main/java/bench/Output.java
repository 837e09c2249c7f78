package bench;

import com.google.gson.JsonObject;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The protocol's JSON lines. They go to the real stdout; System.out is pointed at stderr so that
 * nothing the client libraries might print can break a line the runner parses.
 */
final class Output {
  private final PrintStream out;

  Output() {
    out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
  }

  /** One line per message; synchronized so lines from the ticker and the main thread never mix. */
  synchronized void emit(JsonObject message) {
    out.print(message.toString() + "\n");
    out.flush();
  }

  void progress(String phase, long done, Long total, double elapsedMs, double qps) {
    JsonObject m = new JsonObject();
    m.addProperty("type", "progress");
    m.addProperty("phase", phase);
    m.addProperty("done", done);
    if (total != null) m.addProperty("total", total);
    m.addProperty("elapsedMs", round(elapsedMs));
    m.addProperty("qps", round(qps));
    emit(m);
  }

  /** Three decimals are plenty and keep lines short (and finite: callers never divide by zero). */
  static double round(double v) {
    return Math.round(v * 1000.0) / 1000.0;
  }
}
