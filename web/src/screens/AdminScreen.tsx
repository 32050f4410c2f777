/**
 * Admin: the effective configuration, one form per group, each setting labelled with what it does,
 * its unit beside the field and its range and default under it (GET /api/admin/config/keys); a
 * value out of range is refused before sending, in the sentence the server would answer; and
 * credits granted to (or, negative, taken from) an account by email.
 */
import { useState, type FormEvent } from "react";
import type { SettingInfo } from "@vektor/shared/schemas/config";
import { useAdminConfig, useConfigKeys, useGrantCredits, useSaveConfig } from "../api/admin";
import { ErrorText, Screen } from "../components/Guard";
import { readSetting, settingHint, showSetting, type Read } from "./admin-settings";
import "./admin.css";

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
  const keys = useConfigKeys();
  if (config.error || keys.error) return <ErrorText error={config.error ?? keys.error} />;
  if (!config.data || !keys.data) return <p>Loading…</p>;
  const infos = new Map(keys.data.map((k) => [k.key, k]));
  return (
    <>
      {Object.entries(config.data).map(([group, values]) => (
        <ConfigGroup key={group} group={group} values={values as Record<string, unknown>} infos={infos} />
      ))}
    </>
  );
}

/** Read as the key's kind when the server described it, else as its current value's type (a key newer than this page). */
function readField(info: SettingInfo | undefined, current: unknown, text: string): Read {
  if (info) return readSetting(info, text);
  if (typeof current === "string") return { ok: true, value: text };
  if (typeof current === "number" && text.trim() !== "" && Number.isFinite(Number(text))) return { ok: true, value: Number(text) };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, problem: `${current === undefined ? "This setting" : "The value"} is not valid.` };
  }
}

function ConfigGroup({ group, values, infos }: { group: string; values: Record<string, unknown>; infos: Map<string, SettingInfo> }) {
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<string[]>([]);
  const save = useSaveConfig(group);
  const title = group.replace(/_/g, " ");
  const edit = (key: string, text: string) => setEdits((old) => ({ ...old, [key]: text }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const patch: Record<string, unknown> = {};
    const found: string[] = [];
    for (const [key, text] of Object.entries(edits)) {
      const read = readField(infos.get(key), values[key], text);
      if (read.ok) patch[key] = read.value;
      else found.push(read.problem);
    }
    setProblems(found);
    if (found.length === 0) save.mutate(patch, { onSuccess: () => setEdits({}) });
  };

  return (
    <form className="card settings" aria-labelledby={`${group}-title`} noValidate onSubmit={submit}>
      <h2 id={`${group}-title`}>{title}</h2>
      {Object.entries(values).map(([key, value]) => (
        <Setting key={key} name={key} info={infos.get(key)} text={edits[key] ?? showSetting(infos.get(key), value)} onEdit={(text) => edit(key, text)} />
      ))}
      <div className="actions">
        <button type="submit" disabled={save.isPending || Object.keys(edits).length === 0}>
          Save {title}
        </button>
      </div>
      <ErrorText message={problems.join(" ")} error={save.error} />
      {save.isSuccess ? <p aria-live="polite">Saved.</p> : null}
    </form>
  );
}

/** One setting: its description and key as the label, its unit beside the field, its range and default under it. */
function Setting({ name, info, text, onEdit }: { name: string; info: SettingInfo | undefined; text: string; onEdit: (text: string) => void }) {
  const id = `cfg-${name}`;
  const label = (
    <label htmlFor={id}>
      {info?.description ?? name} <code className="setting-key">{name}</code>
    </label>
  );
  const hint = info ? (
    <small id={`${id}-hint`} className="hint">
      {settingHint(info)}
    </small>
  ) : null;
  const described = info ? `${id}-hint` : undefined;
  if (info?.kind === "switch")
    return (
      <div className="field field-check">
        <input id={id} type="checkbox" checked={text === "true"} aria-describedby={described} onChange={(e) => onEdit(String(e.target.checked))} />
        {label}
        {hint}
      </div>
    );
  return (
    <div className="field">
      {label}
      <div className="setting-input">
        {info?.kind === "list" ? (
          <textarea id={id} rows={Math.max(2, text.split("\n").length)} value={text} aria-describedby={described} onChange={(e) => onEdit(e.target.value)} />
        ) : (
          <input id={id} type={info?.kind === "number" ? "number" : info?.secret ? "password" : "text"} value={text} aria-describedby={described} onChange={(e) => onEdit(e.target.value)} />
        )}
        {info?.unit ? <span className="setting-unit">{info.unit}</span> : null}
      </div>
      {hint}
    </div>
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
