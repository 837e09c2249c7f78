package bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The closed shape: `concurrency` loops, each running operations back to back (after its think time,
 * if any), on a fixed pool of platform threads (one loop each) reused from warm-up to measurement.
 */
final class ClosedLoop implements Shape {
  private final int concurrency;
  /** Null, or a zero ms: no pause. */
  private final Protocol.ThinkTime think;
  private final ExecutorService workers;

  ClosedLoop(int concurrency, Protocol.ThinkTime think, ThreadFactory threads) {
    this.concurrency = concurrency;
    this.think = think;
    this.workers = Executors.newFixedThreadPool(concurrency, threads);
  }

  /** The pause before an operation, in nanoseconds. */
  private long thinkNanos() {
    if (think == null || !(think.ms() > 0)) return 0;
    double ms = think.distribution().equals("exponential") ? -Math.log(1 - ThreadLocalRandom.current().nextDouble()) * think.ms() : think.ms();
    return (long) (ms * 1_000_000);
  }

  @Override
  public void run(BooleanSupplier take, LongConsumer runOne, LongSupplier untilEndNanos, PhaseRecorder rec) throws InterruptedException {
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
          runOne.accept(System.nanoTime());
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
