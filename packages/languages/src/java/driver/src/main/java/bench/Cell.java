package bench;

/**
 * The cell the runner writes on stdin. Its types and their reader are generated from
 * packages/shared/src/protocol.ts ({@link Protocol}: `npm run generate:contract`). The runner has
 * already validated it with zod; the reader fails on a missing or mistyped field, and this refuses what
 * this driver cannot run (an unknown operation kind) and values it could not use, each with a sentence.
 */
final class Cell {
  private Cell() {}

  static Protocol.DriverCell parse(String json) {
    Protocol.DriverCell cell = Protocol.DriverCell.parse(json);
    load(cell.load());
    operations(cell);
    return cell;
  }

  /**
   * The load shape and its phase budgets: `warmupOps` operations, then the measured phase of
   * `measuredOps` operations or `durationMs` (exactly one of the two). One implementation per shape
   * ({@link Shape#of}).
   */
  private static void load(Protocol.Load l) {
    if ((l.measuredOps() == null) == (l.durationMs() == null)) {
      throw new IllegalArgumentException("give exactly one of load.measuredOps or load.durationMs");
    }
    if (l instanceof Protocol.ClosedLoad closed) {
      if (closed.concurrency() < 1) throw new IllegalArgumentException("load.concurrency must be at least 1");
      Protocol.ThinkTime t = closed.thinkTime();
      if (t != null && (!(t.ms() >= 0) || Double.isInfinite(t.ms()))) {
        throw new IllegalArgumentException("load.thinkTime.ms must be a number of at least 0");
      }
    }
    if (l instanceof Protocol.OpenLoad open) {
      if (!(open.ratePerSecond() > 0) || Double.isInfinite(open.ratePerSecond())) throw new IllegalArgumentException("load.ratePerSecond must be a number above 0");
      if (open.maxOutstanding() < 1) throw new IllegalArgumentException("load.maxOutstanding must be at least 1");
    }
  }

  private static void operations(Protocol.DriverCell cell) {
    if (cell.operations().isEmpty()) throw new IllegalArgumentException("operations must list at least one operation kind");
    for (Protocol.OperationMixEntry m : cell.operations()) {
      if (!Operations.known(m.kind())) {
        throw new IllegalArgumentException("unknown operation kind " + m.kind() + " (this driver knows: " + String.join(", ", Operations.kinds()) + ")");
      }
      if (!(m.weight() > 0) || Double.isInfinite(m.weight())) {
        throw new IllegalArgumentException("the weight of operation " + m.kind() + " must be a positive number");
      }
    }
  }
}
