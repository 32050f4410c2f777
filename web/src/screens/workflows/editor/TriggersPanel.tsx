/**
 * Triggers: what starts this workflow besides Run. A webhook (its URL; the secret shown once
 * after it is added or rotated, with a copy button; a curl + openssl example that signs a call
 * as the server checks it), a schedule (cron in UTC, checked by the server on save, its next five
 * fire times in UTC and local time), a watch (prefix and suffix, with which of your recent
 * uploads would match). A switch the administrator turned off is shown disabled, with why.
 */
import type { Trigger, TriggerType } from "@vektor/shared/schemas/trigger";
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { hookUrl, useDeleteTrigger, usePutTrigger, useRecentFiles, useTriggers, type WorkflowSettings } from "../../../api/workflows";
import { formatDate } from "../../../components/format";
import { ErrorText } from "../../../components/Guard";
import { formatLocal, formatUtc, nextFires } from "./cron";
import { webhookExample } from "./webhook-example";

interface Props {
  workflowId: string;
  settings: WorkflowSettings | undefined;
  onClose: () => void;
  onMessage: (text: string) => void;
}

const SWITCH: Record<TriggerType, { key: string; what: string }> = {
  webhook: { key: "workflow.webhook_enabled", what: "Webhook triggers" },
  schedule: { key: "workflow.schedule_enabled", what: "Schedule triggers" },
  watch: { key: "workflow.watch_enabled", what: "Watch triggers" },
};

/** Why triggers of this type start nothing now, or null when they are on. */
function switchedOff(type: TriggerType, settings: WorkflowSettings | undefined): string | null {
  const { key, what } = SWITCH[type];
  if (settings?.flags["workflow.enabled"] === false) return "Workflows are turned off by the administrator (workflow.enabled): no trigger starts a run.";
  return settings?.flags[key] === false ? `${what} are turned off by the administrator (${key}).` : null;
}

export function TriggersPanel({ workflowId, settings, onClose, onMessage }: Props) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const triggers = useTriggers(workflowId);
  const of = (type: TriggerType) => triggers.data?.find((t) => t.type === type);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="side-panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
          Triggers
        </h2>
        <button type="button" className="secondary small" onClick={onClose}>
          Close panel
        </button>
      </div>
      <p className="hint">Run starts this workflow by hand; triggers start it by themselves, charged like a run.</p>
      <ErrorText error={triggers.error} />
      {triggers.isPending ? <p>Loading triggers…</p> : null}
      {triggers.data ? (
        <>
          <Webhook workflowId={workflowId} trigger={of("webhook")} off={switchedOff("webhook", settings)} onMessage={onMessage} />
          <Schedule workflowId={workflowId} trigger={of("schedule")} off={switchedOff("schedule", settings)} onMessage={onMessage} />
          <Watch workflowId={workflowId} trigger={of("watch")} off={switchedOff("watch", settings)} onMessage={onMessage} />
        </>
      ) : null}
    </section>
  );
}

interface TriggerProps {
  workflowId: string;
  trigger: Trigger | undefined;
  off: string | null;
  onMessage: (text: string) => void;
}

function Off({ id, off }: { id: string; off: string | null }) {
  return off ? (
    <p id={id} className="notice">
      {off}
    </p>
  ) : null;
}

function Webhook({ workflowId, trigger, off, onMessage }: TriggerProps) {
  const id = useId();
  const put = usePutTrigger(workflowId);
  const remove = useDeleteTrigger(workflowId);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState("");
  const url = hookUrl(workflowId);
  const example = webhookExample(url, secret);
  const offId = `${id}-off`;
  const copy = (what: string, text: string) => navigator.clipboard?.writeText(text).then(() => setCopied(what), () => setCopied(""));
  const create = () =>
    put.mutate({ type: "webhook", config: {} }, { onSuccess: (r) => (setSecret(r.secret), setCopied(""), onMessage(trigger ? "Webhook secret rotated" : "Webhook added")) });

  return (
    <section className="trigger" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Webhook</h3>
      <Off id={offId} off={off} />
      {trigger ? (
        <>
          <div className="field">
            <label htmlFor={`${id}-url`}>Webhook URL</label>
            <input id={`${id}-url`} readOnly value={url} onFocus={(e) => e.target.select()} />
          </div>
          {secret ? (
            <div className="shown-once">
              <p>Copy the secret now: it is not shown again (Rotate makes a new one).</p>
              <div className="field">
                <label htmlFor={`${id}-secret`}>Webhook secret</label>
                <input id={`${id}-secret`} readOnly value={secret} onFocus={(e) => e.target.select()} />
              </div>
              <button type="button" onClick={() => void copy("secret", secret)}>
                Copy secret
              </button>{" "}
              {copied === "secret" ? <span>Copied.</span> : null}
            </div>
          ) : (
            <p className="hint">The secret was shown when the webhook was added or last rotated; rotate to get a new one.</p>
          )}
          <div className="field">
            <label htmlFor={`${id}-example`}>Example call (curl and openssl)</label>
            <textarea id={`${id}-example`} className="code" readOnly rows={9} spellCheck={false} value={example} />
            <small className="hint">
              Signs <code>timestamp.body</code> with HMAC-SHA-256 under the secret (X-Service-Signature, X-Service-Timestamp); each signature is accepted once, within 5 minutes.
            </small>
          </div>
          <div className="row-actions">
            <button type="button" className="secondary small" onClick={() => void copy("example", example)}>
              Copy example
            </button>
            {copied === "example" ? <span>Copied.</span> : null}
            <button type="button" className="secondary small" disabled={put.isPending} onClick={create}>
              Rotate secret
            </button>
            <button type="button" className="secondary small" disabled={remove.isPending} onClick={() => remove.mutate(trigger.id, { onSuccess: () => (setSecret(null), onMessage("Webhook deleted")) })}>
              Delete webhook
            </button>
          </div>
        </>
      ) : (
        <div className="actions">
          <button type="button" disabled={Boolean(off) || put.isPending} aria-describedby={off ? offId : undefined} onClick={create}>
            Add webhook
          </button>
        </div>
      )}
      <ErrorText error={put.error ?? remove.error} />
    </section>
  );
}

function Schedule({ workflowId, trigger, off, onMessage }: TriggerProps) {
  const id = useId();
  const put = usePutTrigger(workflowId);
  const remove = useDeleteTrigger(workflowId);
  const saved = typeof trigger?.config.cron === "string" ? trigger.config.cron : "";
  const [cron, setCron] = useState(saved || "0 6 * * 1-5");
  useEffect(() => setCron((c) => saved || c), [saved]);
  const fires = useMemo(() => nextFires(cron), [cron]);
  const offId = `${id}-off`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    put.mutate({ type: "schedule", config: { cron } }, { onSuccess: () => onMessage(trigger ? "Schedule changed" : "Schedule added") });
  };
  return (
    <section className="trigger" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Schedule</h3>
      <Off id={offId} off={off} />
      {trigger ? <p>Runs on <code>{saved}</code> (UTC).</p> : null}
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-cron`}>Cron</label>
          <input id={`${id}-cron`} value={cron} spellCheck={false} aria-describedby={`${id}-cron-hint`} onChange={(e) => setCron(e.target.value)} />
          <small id={`${id}-cron-hint`} className="hint">
            Five fields in UTC: minute hour day-of-month month day-of-week, e.g. <code>*/15 * * * *</code>.
          </small>
        </div>
        {fires.ok ? (
          <>
            <p id={`${id}-next`}>Next five runs:</p>
            <table className="fires" aria-labelledby={`${id}-next`}>
              <thead>
                <tr>
                  <th scope="col">UTC</th>
                  <th scope="col">Your time</th>
                </tr>
              </thead>
              <tbody>
                {fires.times.map((t) => (
                  <tr key={t.getTime()}>
                    <td>{formatUtc(t)}</td>
                    <td>{formatLocal(t)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ) : (
          <p className="hint">{fires.message}</p>
        )}
        <div className="row-actions">
          <button type="submit" disabled={Boolean(off) || put.isPending || (trigger !== undefined && cron.trim() === saved)} aria-describedby={off ? offId : undefined}>
            {trigger ? "Change schedule" : "Add schedule"}
          </button>
          {trigger ? (
            <button type="button" className="secondary small" disabled={remove.isPending} onClick={() => remove.mutate(trigger.id, { onSuccess: () => onMessage("Schedule deleted") })}>
              Delete schedule
            </button>
          ) : null}
        </div>
      </form>
      <ErrorText error={put.error ?? remove.error} />
    </section>
  );
}

function Watch({ workflowId, trigger, off, onMessage }: TriggerProps) {
  const id = useId();
  const put = usePutTrigger(workflowId);
  const remove = useDeleteTrigger(workflowId);
  const files = useRecentFiles();
  const savedPrefix = typeof trigger?.config.prefix === "string" ? trigger.config.prefix : "";
  const savedSuffix = typeof trigger?.config.suffix === "string" ? trigger.config.suffix : "";
  const [prefix, setPrefix] = useState(savedPrefix);
  const [suffix, setSuffix] = useState(savedSuffix);
  useEffect(() => (setPrefix(savedPrefix), setSuffix(savedSuffix)), [savedPrefix, savedSuffix]);
  const offId = `${id}-off`;
  // The server's rule (workflows/files.ts): case-insensitive, on uploads only (never a job's output).
  const matches = useMemo(() => {
    if (!prefix && !suffix) return [];
    const [p, s] = [prefix.toLowerCase(), suffix.toLowerCase()];
    return (files.data ?? []).filter((f) => f.status === "UPLOADED" && !f.jobId && f.filename.toLowerCase().startsWith(p) && f.filename.toLowerCase().endsWith(s));
  }, [files.data, prefix, suffix]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    put.mutate({ type: "watch", config: { ...(prefix ? { prefix } : {}), ...(suffix ? { suffix } : {}) } }, { onSuccess: () => onMessage(trigger ? "Watch changed" : "Watch added") });
  };
  const unchanged = trigger !== undefined && prefix === savedPrefix && suffix === savedSuffix;
  return (
    <section className="trigger" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Watch</h3>
      <Off id={offId} off={off} />
      <p className="hint">Each upload whose name matches starts a run with that file.</p>
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-prefix`}>Prefix</label>
          <input id={`${id}-prefix`} maxLength={255} value={prefix} onChange={(e) => setPrefix(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-suffix`}>Suffix</label>
          <input id={`${id}-suffix`} maxLength={255} value={suffix} placeholder=".pdf" onChange={(e) => setSuffix(e.target.value)} />
        </div>
        {prefix || suffix ? (
          <div aria-live="polite">
            <p id={`${id}-matches`}>{matches.length ? `${matches.length} of your recent uploads would match:` : "None of your recent uploads would match."}</p>
            {matches.length ? (
              <ul aria-labelledby={`${id}-matches`}>
                {matches.slice(0, 10).map((f) => (
                  <li key={f.fileId}>
                    {f.filename} <span className="hint">{formatDate(f.createdAt)}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : (
          <p className="hint">Give a prefix, a suffix or both.</p>
        )}
        <div className="row-actions">
          <button type="submit" disabled={Boolean(off) || put.isPending || unchanged || (!prefix && !suffix)} aria-describedby={off ? offId : undefined}>
            {trigger ? "Change watch" : "Add watch"}
          </button>
          {trigger ? (
            <button type="button" className="secondary small" disabled={remove.isPending} onClick={() => remove.mutate(trigger.id, { onSuccess: () => onMessage("Watch deleted") })}>
              Delete watch
            </button>
          ) : null}
        </div>
      </form>
      <ErrorText error={put.error ?? remove.error} />
    </section>
  );
}
