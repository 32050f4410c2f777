/** The options of a tool as form controls, from its params schema (see params-form.ts). */
import { useId } from "react";
import { choiceLabel, initialValue, type FieldSpec, type FieldValue } from "./params-form";

interface Props {
  fields: FieldSpec[];
  values: Record<string, FieldValue>;
  onChange: (key: string, value: FieldValue) => void;
  disabled?: boolean;
}

export function ParamsForm({ fields, values, onChange, disabled }: Props) {
  const prefix = useId();
  return (
    <fieldset className="params" disabled={disabled}>
      <legend>Options</legend>
      {fields.length === 0 ? <p className="hint">This tool has no options.</p> : null}
      {fields.map((field) => (
        <Field key={field.key} id={`${prefix}-${field.key}`} field={field} value={values[field.key] ?? initialValue(field)} onChange={(v) => onChange(field.key, v)} />
      ))}
    </fieldset>
  );
}

function Field({ id, field, value, onChange }: { id: string; field: FieldSpec; value: FieldValue | undefined; onChange: (v: FieldValue) => void }) {
  const { schema } = field;
  const hintId = schema.description ? `${id}-hint` : undefined;
  const hint = schema.description ? (
    <small id={hintId} className="hint">
      {schema.description}
    </small>
  ) : null;
  const text = typeof value === "string" ? value : "";
  const common = { id, name: field.key, "aria-describedby": hintId };

  if (field.kind === "boolean") {
    return (
      <div className="field field-check">
        <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        <label htmlFor={id}>{field.label}</label>
        {hint}
      </div>
    );
  }
  let control;
  let label = field.label;
  if (field.kind === "choice") {
    control = (
      <select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
        {field.optional && schema.default === undefined ? <option value="">(not set)</option> : null}
        {field.choices!.map((choice, i) => (
          <option key={i} value={String(i)}>
            {choiceLabel(choice)}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === "number" || field.kind === "integer") {
    const integer = field.kind === "integer";
    control = (
      <input
        {...common}
        type="number"
        inputMode={integer ? "numeric" : "decimal"}
        min={schema.minimum ?? schema.exclusiveMinimum}
        max={schema.maximum ?? schema.exclusiveMaximum}
        step={integer ? 1 : "any"}
        required={!field.optional}
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else if (field.kind === "string") {
    control = (
      <input {...common} type="text" minLength={schema.minLength} maxLength={schema.maxLength} pattern={htmlPattern(schema.pattern)} required={!field.optional} value={text} onChange={(e) => onChange(e.target.value)} />
    );
  } else {
    label = `${field.label} (JSON)`;
    control = <textarea {...common} rows={3} spellCheck={false} value={text} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control}
      {hint}
    </div>
  );
}

/**
 * A schema pattern as an input's `pattern`, which browsers read with the `v` flag: one that is
 * not valid there (a `{` unescaped in a class, as sink.rename's) is left to the server's check.
 */
function htmlPattern(pattern: string | undefined): string | undefined {
  if (!pattern) return undefined;
  try {
    new RegExp(pattern, "v");
    return pattern;
  } catch {
    return undefined;
  }
}
