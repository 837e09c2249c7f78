import type { ReactNode } from 'react';

/** The columns a stored spec fills, or one cell across them saying why the spec does not parse. */
export function SpecColumns({ invalid, span, children }: { invalid?: string; span: number; children: ReactNode }) {
  if (!invalid) return <>{children}</>;
  return (
    <td colSpan={span} className="small error">
      {invalid}
    </td>
  );
}
