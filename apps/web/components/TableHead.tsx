/** A table's header row from its column titles. */
export function TableHead({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c, i) => (
          <th key={i}>{c}</th>
        ))}
      </tr>
    </thead>
  );
}
