package bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** The weighted operation mix: its distinct kinds in mix order, their operations, and the picker. */
final class Mix {
  final String[] kinds;
  final Operations.Operation[] ops;
  /** Per mix entry: its weight and the index of its kind in `kinds`. */
  private final double[] weights;
  private final int[] entryKind;
  private final double totalWeight;

  /** `operations` holds the operation of every kind of `mix`. */
  Mix(List<Protocol.OperationMixEntry> mix, Map<String, Operations.Operation> operations) {
    Map<String, Integer> index = new LinkedHashMap<>();
    weights = new double[mix.size()];
    entryKind = new int[mix.size()];
    double sum = 0;
    for (int i = 0; i < mix.size(); i++) {
      Protocol.OperationMixEntry m = mix.get(i);
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

  /** The index of a kind picked with probability weight / total weight. */
  int pick() {
    if (entryKind.length == 1) return entryKind[0];
    double r = ThreadLocalRandom.current().nextDouble() * totalWeight;
    for (int i = 0; i < weights.length; i++) {
      if ((r -= weights[i]) < 0) return entryKind[i];
    }
    return entryKind[entryKind.length - 1];
  }
}
