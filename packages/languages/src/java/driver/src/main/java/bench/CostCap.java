package bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** The cell's cost cap over both phases: operations started in all, time since the first, sessions created. */
final class CostCap {
  private final Protocol.Cap cap;
  private final AtomicLong started = new AtomicLong();
  /** When the first operation was claimed (0: none yet); the time cap counts from there, as Node's does. */
  private final AtomicLong startNanos = new AtomicLong();
  /** The first limit reached wins: loops refused by both at once must not overwrite each other. */
  private final AtomicReference<String> hit = new AtomicReference<>();

  /** `cap` may be null: no cap. */
  CostCap(Protocol.Cap cap) {
    this.cap = cap;
  }

  /** Claims one operation of the cost cap; false (and which limit) once it is reached. */
  boolean take() {
    if (cap == null) return true;
    long now = System.nanoTime();
    // Not at construction or phase start: thread start-up in a cold JVM is not the cell's time.
    if (startNanos.get() == 0) startNanos.compareAndSet(0, now);
    if (hit.get() != null) return false;
    // Ops first, as Node's Cap: a count reached before the time ran out is what stopped the cell.
    if (started.getAndIncrement() >= cap.ops()) {
      hit.compareAndSet(null, "ops");
      return false;
    }
    if (now - startNanos.get() >= (long) (cap.ms() * 1_000_000)) {
      hit.compareAndSet(null, "time");
      return false;
    }
    if (cap.sessions() != null && SessionCount.created() >= cap.sessions()) {
      hit.compareAndSet(null, "sessions");
      return false;
    }
    return true;
  }

  /** "ops", "time" or "sessions" once the cap stopped the cell; null otherwise. */
  String hit() {
    return hit.get();
  }
}
