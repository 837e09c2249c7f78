import { languageNames } from '@scb/shared/job';

/** "Client" and a select of every registered client language, for the launch forms. */
export function LanguageSelect({ value, onChange }: { value: string; onChange: (e: { target: { value: string } }) => void }) {
  return (
    <label>
      Client{' '}
      <select value={value} onChange={onChange} name="language">
        {languageNames().map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}
