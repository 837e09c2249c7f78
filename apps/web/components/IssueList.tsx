import type { Issue } from './post-json';

/** The fields a form's request was refused for, each with its reason. */
export function IssueList({ issues }: { issues: Issue[] }) {
  if (issues.length === 0) return null;
  return (
    <ul className="error" role="alert">
      {issues.map((i) => (
        <li key={i.path + i.message}>
          <code>{i.path}</code>: {i.message}
        </li>
      ))}
    </ul>
  );
}
