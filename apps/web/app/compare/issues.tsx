import type { FieldIssue } from '@scb/shared/job';

/** Why nothing is compared: a title and one line per issue, naming the parameter. */
export function Issues({ title, issues }: { title: string; issues: FieldIssue[] }) {
  return (
    <div className="cmp-box cmp-error-box" role="alert" data-testid="compare-error">
      <p>
        <strong>{title}</strong>
      </p>
      <ul>
        {issues.map((i) => (
          <li key={i.path + i.message}>
            {i.message}{' '}
            <span className="muted">
              (<code>{i.path}</code>)
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
