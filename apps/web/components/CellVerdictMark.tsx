import { VERDICT_MEANING, verdictReasons, type CellVerdict } from '@scb/shared/verdict';

/** clean / client-bound / harness-bound, with the figures past their thresholds on hover and below. */
export function CellVerdictMark({ verdict }: { verdict: CellVerdict }) {
  const reasons = verdictReasons(verdict);
  return (
    <span className={`cell-verdict cell-verdict-${verdict.kind}`} data-verdict={verdict.kind} title={`${VERDICT_MEANING[verdict.kind]}${reasons ? `: ${reasons}` : ''}`}>
      {verdict.kind}
      {reasons && <div className="small muted">{reasons}</div>}
    </span>
  );
}
