import Link from '@/components/PageLink';
import type { FieldIssue } from '@scb/shared/job';

/** A list page that shows nothing but why: its title, its address's parameters each named with what it must be, and the way back. */
export function QueryIssues({ title, issues, plain }: { title: string; issues: FieldIssue[]; plain: string }) {
  return (
    <>
      <h1>{title}</h1>
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
    </>
  );
}
