import type { LanguageInfo, RefusableConfiguration, RefusalContext } from '@scb/shared/language-info';
import { columnName } from '@scb/shared/result-set-shape';

/** What the spec, forms and pages know of the Node client (registered by ../info.ts). */
export const nodeInfo = {
  name: 'node',
  title: 'Node',
  packageName: '@google-cloud/spanner',
  exampleVersion: '9.0.0',
  cellSeconds: 5,
  poolInUse: 'borrowed',
  // One event loop shared with the client: timers fire between its callbacks.
  scheduleLagGoalMs: 5,
  grpcPackage: '@grpc/grpc-js',
  refuse: (c, context) => nodeRowsRefusal(c, context) ?? nodeScanRefusal(c, context),
  refuseForeign: (c, language) => {
    if (c.nodeRows !== undefined) return { option: 'nodeRows', message: `is a node client option (its json and wrapNumbers query options); the ${language} client has none` };
    if (c.nodeScan !== undefined) return { option: 'nodeScan', message: `is a node client option (database.run or database.runStream); the ${language} client has neither` };
    return null;
  },
  hints: {
    configurations: 'With grpc-gcp off the Node client uses one HTTP/2 connection (100 streams). The dynamic channel pool is a Java option.',
    numChannels: "The grpc-gcp pool's maximum size (needs grpc-gcp).",
  },
} satisfies LanguageInfo;

/**
 * The Node row formats, against the workload: they shape the scan operation's rows only, and `json`
 * (numbers unwrapped) cannot read an INT64 result: the client throws for every value outside
 * Number.isSafeInteger, and the generated INT64 values span the whole 64-bit range.
 */
function nodeRowsRefusal(c: RefusableConfiguration, context: RefusalContext | undefined): { option: string; message: string } | null {
  const workload = context?.workload;
  if (c.nodeRows === undefined || !workload) return null;
  if (!workload.operations.includes('scan')) return { option: 'nodeRows', message: "shapes the rows of the scan operation's query, which the workload does not run" };
  if (c.nodeRows !== 'json') return null;
  const i = workload.resultSet?.columns.findIndex((col) => /^(ARRAY<)?INT64>?$/.test(col.type) && (col.nullFraction ?? 0) < 1) ?? -1;
  if (i < 0) return null;
  const col = workload.resultSet!.columns[i]!;
  return {
    option: 'nodeRows',
    message: `json reads INT64 values as JS numbers and @google-cloud/spanner throws for any outside Number.isSafeInteger (±2^53 − 1), which the result's column ${columnName(i)} (${col.type}) holds (its values span the whole 64-bit range): use json-wrapNumbers, or a result without INT64 columns`,
  };
}

/** Node's nodeScan, against the workload: it says how the scan operation takes its rows. */
function nodeScanRefusal(c: RefusableConfiguration, context: RefusalContext | undefined): { option: string; message: string } | null {
  if (c.nodeScan === undefined || !context?.workload || context.workload.operations.includes('scan')) return null;
  return { option: 'nodeScan', message: 'says how the scan operation takes its rows, which the workload does not run' };
}
