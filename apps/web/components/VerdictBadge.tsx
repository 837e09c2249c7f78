import { VERDICT_WORDS } from '@scb/shared/gate-markdown';

/** pass / fail / inconclusive, or the gate's status while it has no verdict. */
export function VerdictBadge({ verdict, status }: { verdict: string | null; status: string }) {
  if (!verdict)
    return (
      <span className={`status status-${status === 'evaluating' ? 'running' : status}`} data-testid="verdict">
        {status}
      </span>
    );
  return (
    <span className={`verdict verdict-${verdict}`} data-testid="verdict">
      {VERDICT_WORDS[verdict] ?? verdict}
    </span>
  );
}
