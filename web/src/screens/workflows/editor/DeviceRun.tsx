/**
 * The parts of the run dialog for a run on this device: the steps as they go, an approval step's
 * question (Approve or Reject, with a Note), and the results: a download per output and
 * `Download all` (one STORE ZIP of them), all made in the page from bytes in memory.
 */
import { zipName } from "@vektor/shared/workflows/nodes";
import { useEffect, useId, useMemo, useState } from "react";
import { formatBytes } from "../../../components/format";
import { zipFiles, type LocalFile } from "../../../workflows/runner/core";
import type { DeviceRun } from "../../../workflows/runner/device-runs";

/** A question an approval step asks, answered in the page. */
export interface PendingApproval {
  title: string;
  files: readonly LocalFile[];
  answer: (decision: { approved: boolean; note?: string }) => void;
}

export function DeviceSteps({ run }: { run: DeviceRun }) {
  return (
    <ol aria-label="Steps" className="device-steps">
      {run.steps.map((s) => (
        <li key={s.nodeId}>
          {s.title} <span className={`status status-${s.status}`}>{s.status}</span>
          {s.error ? <small className="error"> {s.error.message}</small> : null}
        </li>
      ))}
    </ol>
  );
}

export function ApprovalAsk({ ask }: { ask: PendingApproval }) {
  const id = useId();
  const [note, setNote] = useState("");
  return (
    <section className="notice" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Step “{ask.title}” waits for your approval</h3>
      <p>It gates {ask.files.length ? ask.files.map((f) => f.filename).join(", ") : "no files"}.</p>
      <div className="field">
        <label htmlFor={`${id}-note`}>Note</label>
        <input id={`${id}-note`} value={note} onChange={(e) => setNote(e.target.value)} />
      </div>
      <div className="actions">
        <button type="button" onClick={() => ask.answer({ approved: true, note })}>
          Approve
        </button>
        <button type="button" className="secondary" onClick={() => ask.answer({ approved: false, note })}>
          Reject
        </button>
      </div>
    </section>
  );
}

interface Link {
  name: string;
  size: number;
  href: string;
}

/** Object URLs for `files` (and their ZIP), revoked when the results go. */
function useLinks(files: readonly LocalFile[], zipAs: string): { each: Link[]; all: Link | null } {
  const links = useMemo(() => {
    const url = (f: LocalFile) => ({ name: f.filename, size: f.size, href: URL.createObjectURL(new Blob([f.bytes as Uint8Array<ArrayBuffer>], { type: f.mime })) });
    return { each: files.map(url), all: files.length ? url(zipFiles(zipName(zipAs), files)) : null };
  }, [files, zipAs]);
  useEffect(() => () => [...links.each, ...(links.all ? [links.all] : [])].forEach((l) => URL.revokeObjectURL(l.href)), [links]);
  return links;
}

export function DeviceResults({ outputs, name }: { outputs: readonly LocalFile[]; name: string }) {
  const { each, all } = useLinks(outputs, `${name} outputs`);
  if (!all) return <p>The run gave no files.</p>;
  return (
    <section aria-label="Results">
      <ul className="results">
        {each.map((l) => (
          <li key={l.href}>
            <a href={l.href} download={l.name}>
              Download {l.name}
            </a>{" "}
            <span className="hint">({formatBytes(l.size)})</span>
          </li>
        ))}
      </ul>
      <p>
        <a href={all.href} download={all.name}>
          Download all
        </a>{" "}
        <span className="hint">
          ({all.name}, {formatBytes(all.size)})
        </span>
      </p>
    </section>
  );
}
