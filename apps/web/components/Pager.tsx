import Link from '@/components/PageLink';

/** "Jobs 101–200 of 2000. Newer Older" under a list that shows `size` rows a page. */
export function Pager({ noun, page, size, total, href }: { noun: string; page: number; size: number; total: number; href: (page: number) => string }) {
  if (total <= size) return null;
  return (
    <p className="muted">
      {noun} {(page - 1) * size + 1}–{Math.min(total, page * size)} of {total}. {page > 1 && <Link href={href(page - 1)}>Newer</Link>} {page * size < total && <Link href={href(page + 1)}>Older</Link>}
    </p>
  );
}
