/** A labelled select over a list of { value, label } choices. */
export interface Choice {
  value: string;
  label: string;
}

export function SelectField({ id, label, value, choices, disabled, onChange }: { id: string; label: string; value: string; choices: Choice[]; disabled?: boolean; onChange: (value: string) => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}
