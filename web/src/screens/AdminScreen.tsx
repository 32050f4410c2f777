/**
 * Admin: the effective configuration, one form per group, each key a control of its value's type
 * (switch, number, text, JSON for lists), saved through the admin API, which validates it and
 * whose message is shown; and credits granted to (or, negative, taken from) an account by email.
 */
import { useState, type FormEvent } from "react";
import { useAdminConfig, useGrantCredits, useSaveConfig } from "../api/admin";
import { ErrorText, Screen } from "../components/Guard";

/** Behind the admin route's check (router.tsx). */
export function AdminScreen() {
  return (
    <Screen title="Admin">
      <Config />
      <GrantCredits />
    </Screen>
  );
}

function Config() {
  const config = useAdminConfig();
  if (config.error) return <ErrorText error={config.error} />;
  if (!config.data) return <p>Loading…</p>;
  return (
    <>
      {Object.entries(config.data).map(([group, values]) => (
        <ConfigGroup key={group} group={group} values={values as Record<string, unknown>} />
      ))}
    </>
  );
}

/** Parses what a control holds back into the key's type (that of its current value). */
function parse(current: unknown, text: string): { ok: true; value: unknown } | { ok: false } {
  if (typeof current === "string") return { ok: true, value: text };
  if (typeof current === "number") return text.trim() !== "" && Number.isFinite(Number(text)) ? { ok: true, value: Number(text) } : { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function ConfigGroup({ group, values }: { group: string; values: Record<string, unknown> }) {
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState("");
  const save = useSaveConfig(group);
  const title = group.replace(/_/g, " ");
  const edit = (key: string, text: string) => setEdits((old) => ({ ...old, [key]: text }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const patch: Record<string, unknown> = {};
    for (const [key, text] of Object.entries(edits)) {
      const parsed = parse(values[key], text);
      if (!parsed.ok) return setProblem(`${key}: not a valid value`);
      patch[key] = parsed.value;
    }
    setProblem("");
    save.mutate(patch, { onSuccess: () => setEdits({}) });
  };

  return (
    <form className="card" aria-labelledby={`${group}-title`} onSubmit={submit}>
      <h2 id={`${group}-title`}>{title}</h2>
      {Object.entries(values).map(([key, value]) => {
        const id = `cfg-${key}`;
        const text = edits[key] ?? show(value);
        if (typeof value === "boolean")
          return (
            <div className="field field-check" key={key}>
              <input id={id} type="checkbox" checked={text === "true"} onChange={(e) => edit(key, String(e.target.checked))} />
              <label htmlFor={id}>{key}</label>
            </div>
          );
        return (
          <div className="field" key={key}>
            <label htmlFor={id}>{typeof value === "number" || typeof value === "string" ? key : `${key} (JSON)`}</label>
            <input id={id} type={typeof value === "number" ? "number" : "text"} value={text} onChange={(e) => edit(key, e.target.value)} />
          </div>
        );
      })}
      <div className="actions">
        <button type="submit" disabled={save.isPending || Object.keys(edits).length === 0}>
          Save {title}
        </button>
      </div>
      <ErrorText message={problem} error={save.error} />
      {save.isSuccess ? <p aria-live="polite">Saved.</p> : null}
    </form>
  );
}

/** POST /api/admin/credits; the server checks the email, amount and reason, and its message is shown. */
function GrantCredits() {
  const [form, setForm] = useState({ email: "", amount: "", reason: "" });
  const grant = useGrantCredits();
  const field = (key: keyof typeof form, label: string, type: string) => (
    <div className="field">
      <label htmlFor={`grant-${key}`}>{label}</label>
      <input id={`grant-${key}`} type={type} value={form[key]} onChange={(e) => setForm((old) => ({ ...old, [key]: e.target.value }))} />
    </div>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An empty amount goes as NaN (null in JSON), so the server's validation names it.
    const body = { email: form.email.trim(), amount: form.amount.trim() ? Number(form.amount) : NaN, reason: form.reason };
    grant.mutate(body, { onSuccess: () => setForm({ email: "", amount: "", reason: "" }) });
  };

  return (
    <form className="card" aria-labelledby="grant-title" noValidate onSubmit={submit}>
      <h2 id="grant-title">Grant credits</h2>
      {field("email", "Account email", "email")}
      {field("amount", "Credits (negative to take away)", "number")}
      {field("reason", "Reason", "text")}
      <div className="actions">
        <button type="submit" disabled={grant.isPending}>
          Grant credits
        </button>
      </div>
      <ErrorText error={grant.error} />
      {grant.data ? <p aria-live="polite">{`${grant.data.email} now has ${grant.data.credits} credits.`}</p> : null}
    </form>
  );
}
