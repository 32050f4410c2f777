/**
 * The workflow's own settings, saved with the next Save: its name, the completion webhook
 * (notifyUrl, and notifySecret, which is write-only: never shown, only replaced or removed),
 * whether an e-mail goes out when a run ends (the administrator's switch), and the estimate.
 */
import { useEffect, useId, useRef } from "react";
import type { WorkflowSettings } from "../../../api/workflows";
import type { RunOptions, RunOptionsDraft } from "./run-options";

interface Props {
  name: string;
  onName: (name: string) => void;
  options: RunOptions;
  draft: RunOptionsDraft;
  onDraft: (d: RunOptionsDraft) => void;
  settings: WorkflowSettings | undefined;
  estimate: string;
  onClose: () => void;
}

export function SettingsPanel({ name, onName, options, draft, onDraft, settings, estimate, onClose }: Props) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const emailOn = settings?.flags["workflow.notify_email_enabled"] === true;
  const set = (patch: Partial<RunOptionsDraft>) => onDraft({ ...draft, ...patch });
  return (
    <section className="side-panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
          Workflow settings
        </h2>
        <button type="button" className="secondary small" onClick={onClose}>
          Close panel
        </button>
      </div>
      <p className="hint">Changes here are kept with the next Save.</p>
      <div className="field">
        <label htmlFor={`${id}-name`}>Workflow name</label>
        <input id={`${id}-name`} required maxLength={200} value={name} onChange={(e) => onName(e.target.value)} />
      </div>
      <fieldset>
        <legend>When a run ends</legend>
        <div className="field">
          <label htmlFor={`${id}-url`}>Notify URL</label>
          <input id={`${id}-url`} type="url" inputMode="url" placeholder="https://example.com/hooks/vektor" value={draft.notifyUrl} aria-describedby={`${id}-url-hint`} onChange={(e) => set({ notifyUrl: e.target.value })} />
          <small id={`${id}-url-hint`} className="hint">
            The service POSTs the run's outcome here (retried with back-off).
          </small>
        </div>
        <div className="field">
          <label htmlFor={`${id}-secret`}>Notify secret</label>
          <input
            id={`${id}-secret`}
            type="password"
            autoComplete="new-password"
            minLength={8}
            disabled={draft.removeSecret}
            value={draft.secret}
            aria-describedby={`${id}-secret-hint`}
            onChange={(e) => set({ secret: e.target.value })}
          />
          <small id={`${id}-secret-hint`} className="hint">
            {options.secretSet ? "A secret is set; it is never shown. Type a new one to replace it." : "No secret is set. With one (8 or more characters), each notification is signed with it."}
          </small>
        </div>
        {options.secretSet ? (
          <div className="field field-check">
            <input id={`${id}-remove`} type="checkbox" checked={draft.removeSecret} onChange={(e) => set({ removeSecret: e.target.checked, secret: "" })} />
            <label htmlFor={`${id}-remove`}>Remove the secret</label>
          </div>
        ) : null}
        <div className="field field-check">
          <input id={`${id}-email`} type="checkbox" checked={emailOn} disabled aria-describedby={`${id}-email-hint`} />
          <label htmlFor={`${id}-email`}>E-mail me when a run ends</label>
          <small id={`${id}-email-hint`} className="hint">
            {emailOn
              ? "On for every workflow: the administrator turned e-mail on completion on (to your account's address)."
              : "Off: the administrator has not turned e-mail on completion on (workflow.notify_email_enabled)."}
          </small>
        </div>
      </fieldset>
      <p>{estimate}</p>
    </section>
  );
}
