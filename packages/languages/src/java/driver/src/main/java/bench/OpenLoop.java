package bench;

import java.util.ArrayDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Phaser;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The open shape: operations arrive on a schedule drawn ahead (the next arrival never depends on how
 * the last went), Poisson or uniform, at `ratePerSecond`. The calling thread parks until each arrival
 * and hands it to a worker thread (a cached pool, so at most `maxOutstanding` threads run operations);
 * while `maxOutstanding` run, arrivals wait in line and a worker that ends takes the next.
 */
final class OpenLoop implements Shape {
  private final double meanGapNanos;
  private final boolean poisson;
  private final int maxOutstanding;
  private final ExecutorService workers;

  OpenLoop(double ratePerSecond, String distribution, int maxOutstanding, ThreadFactory threads) {
    this.meanGapNanos = 1e9 / ratePerSecond;
    this.poisson = distribution.equals("poisson");
    this.maxOutstanding = maxOutstanding;
    this.workers = Executors.newCachedThreadPool(threads);
  }

  @Override
  public boolean open() {
    return true;
  }

  private long gapNanos() {
    return (long) (poisson ? -Math.log(1 - ThreadLocalRandom.current().nextDouble()) * meanGapNanos : meanGapNanos);
  }

  @Override
  public void run(BooleanSupplier take, LongConsumer runOne, LongSupplier untilEndNanos, PhaseRecorder rec) throws InterruptedException {
    ArrayDeque<Long> line = new ArrayDeque<>();
    int[] outstanding = {0};
    Phaser done = new Phaser(1);
    long left = untilEndNanos.getAsLong();
    long next = System.nanoTime();
    long end = left == Long.MAX_VALUE ? Long.MAX_VALUE : next + left;
    while (end == Long.MAX_VALUE || next - end < 0) {
      long wait;
      while ((wait = next - System.nanoTime()) > 0) LockSupport.parkNanos(wait);
      if (Thread.interrupted()) throw new InterruptedException();
      if (!take.getAsBoolean()) break;
      boolean start;
      synchronized (line) {
        start = outstanding[0] < maxOutstanding;
        if (start) outstanding[0]++;
        else {
          line.add(next);
          rec.waiting(line.size(), true);
        }
      }
      if (start) {
        rec.late((System.nanoTime() - next) / 1000);
        long intended = next;
        done.register();
        workers.execute(() -> {
          try {
            long t = intended;
            while (true) {
              runOne.accept(t);
              synchronized (line) {
                Long queued = line.poll();
                if (queued == null) {
                  outstanding[0]--;
                  return;
                }
                t = queued;
                rec.waiting(line.size(), false);
              }
            }
          } finally {
            done.arriveAndDeregister();
          }
        });
      }
      next += gapNanos();
    }
    done.arriveAndAwaitAdvance();
  }

  @Override
  public void close() {
    workers.shutdownNow();
  }
}
