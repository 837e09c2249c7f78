import { expectationWord } from '@scb/shared/markdown';
import type { JobView } from '@/lib/jobs';

/** What the spec expected of its results, each met or not, with the figures (a reproduction's verdict). */
export function Expectations({ expectations, live }: { expectations: NonNullable<JobView['expectations']>; live: boolean }) {
  return (
    <section data-testid="expectations">
      <h2>
        Expectations:{' '}
        <span className={`verdict verdict-${expectations.met === true ? 'pass' : expectations.met === false ? 'fail' : 'inconclusive'}`} data-testid="expectations-verdict">
          {live && expectations.met === null ? 'running' : expectationWord(expectations.met)}
        </span>
      </h2>
      <ul>
        {expectations.outcomes.map((o, i) => (
          <li key={`${i}-${o.text}`} data-testid="expectation" data-met={String(o.met)}>
            <strong>{expectationWord(o.met)}</strong>: {o.expectation.says ? `${o.expectation.says}. ` : ''}
            <span className="muted">{o.text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
