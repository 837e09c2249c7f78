import Link from 'next/link';
import type { FieldIssue } from '@scb/shared/job';

/** Why a list page shows nothing: its address's parameters, each named with what it must be. */
export function QueryIssues({ issues, plain }: { issues: FieldIssue[]; plain: string }) {
  return (
    <div role="alert" data-testid="query-issues">
      <p className="error">This address's parameters are not valid:</p>
      <ul className="error">
        {issues.map((i) => (
          <li key={i.path}>
            <code>{i.path}</code> {i.message}
          </li>
        ))}
      </ul>
      <p>
        <Link href={plain}>The whole list</Link>
      </p>
    </div>
  );
}
