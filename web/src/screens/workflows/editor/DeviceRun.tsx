/**
 * The parts of the run dialog for a run on this device: the steps as they go, an approval step's
 * question (Approve or Reject, with a Note), and the results: a download per output and
 * `Download all` (one STORE ZIP of them, written from the outputs' Blobs once the run ends).
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

const linkOf = (f: LocalFile): Link => ({ name: f.filename, size: f.size, href: URL.createObjectURL(f.blob) });

/** Object URLs for `files` and, once it is written, their ZIP (null while it is); revoked when the results go. */
function useLinks(files: readonly LocalFile[], zipAs: string): { each: Link[]; all: Link | null } {
  const each = useMemo(() => files.map(linkOf), [files]);
  const [all, setAll] = useState<Link | null>(null);
  useEffect(() => () => each.forEach((l) => URL.revokeObjectURL(l.href)), [each]);
  useEffect(() => {
    let link: Link | null = null;
    let gone = false;
    setAll(null);
    if (files.length)
      void zipFiles(zipName(zipAs), files).then((zip) => {
        if (gone) return;
        link = linkOf(zip);
        setAll(link);
      });
    return () => {
      gone = true;
      if (link) URL.revokeObjectURL(link.href);
    };
  }, [files, zipAs]);
  return { each, all };
}

export function DeviceResults({ outputs, name }: { outputs: readonly LocalFile[]; name: string }) {
  const { each, all } = useLinks(outputs, `${name} outputs`);
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
      {all ? (
        <p>
          <a href={all.href} download={all.name}>
            Download all
          </a>{" "}
          <span className="hint">
            ({all.name}, {formatBytes(all.size)})
          </span>
        </p>
      ) : (
        <p className="hint" role="status">
          Preparing the ZIP of all outputs…
        </p>
      )}
    </section>
  );
}
