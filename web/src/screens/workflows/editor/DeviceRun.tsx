/**
 * The parts of the run dialog for a run on this device: the steps as they go, an approval step's
 * question (Approve or Reject, with a Note), and the results: a download per output and
 * `Download all` (one STORE ZIP of them, written from the outputs' Blobs when asked for).
 */
import { zipName } from "@vektor/shared/workflows/nodes";
import { useEffect, useId, useMemo, useState } from "react";
import { formatBytes } from "../../../components/format";
import { errorMessage } from "../../../api/client";
import { saveBlob } from "../../../components/blob-zip";
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

/** Object URLs for `files` (their Blobs, no copy), revoked when the results go. */
function useLinks(files: readonly LocalFile[]): Link[] {
  const links = useMemo(() => files.map((f) => ({ name: f.filename, size: f.size, href: URL.createObjectURL(f.blob) })), [files]);
  useEffect(() => () => links.forEach((l) => URL.revokeObjectURL(l.href)), [links]);
  return links;
}

export function DeviceResults({ outputs, name }: { outputs: readonly LocalFile[]; name: string }) {
  const each = useLinks(outputs);
  if (!each.length) return <p>The run gave no files.</p>;
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
      <DownloadAll files={outputs} zipAs={zipName(`${name} outputs`)} />
    </section>
  );
}

/** One STORE ZIP of the outputs, written from their Blobs when asked for (not before: it would be one more copy of them all). */
function DownloadAll({ files, zipAs }: { files: readonly LocalFile[]; zipAs: string }) {
  const [state, setState] = useState({ busy: false, error: "" });
  async function save() {
    setState({ busy: true, error: "" });
    try {
      const zip = await zipFiles(zipAs, files);
      saveBlob(zip.blob, zip.filename);
      setState({ busy: false, error: "" });
    } catch (err) {
      setState({ busy: false, error: `Could not make the ZIP: ${errorMessage(err)}` });
    }
  }
  const total = files.reduce((sum, f) => sum + f.size, 0);
  return (
    <p className="actions">
      <button type="button" onClick={() => void save()} disabled={state.busy}>
        Download all
      </button>{" "}
      <span className="hint" role={state.busy ? "status" : undefined}>
        {state.busy ? `Writing ${zipAs}…` : `(${zipAs}: ${files.length} ${files.length === 1 ? "file" : "files"}, ${formatBytes(total)})`}
      </span>
      {state.error ? <span className="error">{state.error}</span> : null}
    </p>
  );
}
