package bench;

import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * A load shape: how operations are issued until a phase's budget is used up. `take` claims one
 * operation of the budget and is false once it is spent; `runOne` runs one operation of the mix and
 * records it (it never throws), its latency counted from the intended start it is given (an open
 * loop's arrival; a closed loop passes the moment it starts). One implementation per shape of the
 * protocol; see {@link #of}.
 */
interface Shape extends AutoCloseable {
  /** Issues operations while `take` grants them; returns once every issued operation is done. */
  void run(BooleanSupplier take, LongConsumer runOne, LongSupplier untilEndNanos, PhaseRecorder rec) throws InterruptedException;

  /** Whether latencies count from intended starts: the recorder then keeps uncorrected ones and the lag. */
  default boolean open() {
    return false;
  }

  /** Releases the shape's threads; called once, after the last phase. */
  @Override
  void close();

  /** The shape of the cell's load, its threads made by `threads`. */
  static Shape of(Protocol.Load load, ThreadFactory threads) {
    if (load instanceof Protocol.ClosedLoad closed) return new ClosedLoop(Math.toIntExact(closed.concurrency()), closed.thinkTime(), threads);
    if (load instanceof Protocol.OpenLoad open) return new OpenLoop(open.ratePerSecond(), open.distribution(), Math.toIntExact(open.maxOutstanding()), threads);
    throw new IllegalArgumentException("no load shape for " + load);
  }
}
