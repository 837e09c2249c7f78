/** A GET form of selects that filter a list page (?name=value); the empty choice is no filter. */
export function Filters({ label, fields }: { label: string; fields: { name: string; label: string; value: string; options: readonly string[]; any: string }[] }) {
  return (
    <form method="get" className="filters" aria-label={label}>
      {fields.map((f) => (
        <span key={f.name}>
          <label>
            {f.label}{' '}
            <select name={f.name} defaultValue={f.value}>
              <option value="">{f.any}</option>
              {f.options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </label>{' '}
        </span>
      ))}
      <button type="submit">Filter</button>
    </form>
  );
}
