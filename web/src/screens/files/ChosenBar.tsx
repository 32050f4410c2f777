/**
 * What to do with the chosen files: run a tool on them (Convert, with them chosen) or delete
 * them all after a confirmation that names them.
 */
import { useNavigate } from "@tanstack/react-router";
import type { FileRecord } from "@vektor/shared/schemas/file";
import { useState } from "react";
import { Dialog } from "../../components/Dialog";
import { MAX_STORED_INPUTS } from "../convert/convert-search";
import { whyNotRun, type Chosen } from "./file-words";

export interface ChosenBarProps {
  chosen: Chosen<FileRecord>;
  onClear: () => void;
  /** Deletes them; answers the names that could not be deleted. */
  onDelete: (files: FileRecord[]) => Promise<string[]>;
}

export function ChosenBar({ chosen, onClear, onDelete }: ChosenBarProps) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const files = [...chosen.values()];
  if (files.length === 0) return null;
  const notRun = whyNotRun(files, MAX_STORED_INPUTS);
  const run = () => navigate({ to: "/", search: { files: files.map((f) => f.fileId).join(",") } });
  return (
    <div className="chosen-bar" role="region" aria-label="Chosen files">
      <p className="chosen-count" aria-live="polite">
        {files.length === 1 ? "1 file chosen" : `${files.length} files chosen`}
      </p>
      <div className="actions">
        <button type="button" disabled={Boolean(notRun)} aria-describedby={notRun ? "chosen-why" : undefined} onClick={() => void run()}>
          Run a tool on these
        </button>
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Delete chosen
        </button>
        <button type="button" className="secondary" onClick={onClear}>
          Clear choice
        </button>
      </div>
      {notRun ? (
        <small id="chosen-why" className="hint">
          {notRun}
        </small>
      ) : null}
      {confirming ? <ConfirmDelete files={files} onDelete={onDelete} onClose={() => setConfirming(false)} /> : null}
    </div>
  );
}

function ConfirmDelete({ files, onDelete, onClose }: { files: FileRecord[]; onDelete: ChosenBarProps["onDelete"]; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string[]>([]);
  const title = files.length === 1 ? `Delete ${files[0]!.filename}?` : `Delete ${files.length} files?`;
  async function confirm() {
    setBusy(true);
    const left = await onDelete(files);
    setBusy(false);
    if (left.length === 0) onClose();
    else setFailed(left);
  }
  return (
    <Dialog title={title} onClose={onClose}>
      <p>These files and their bytes are deleted for good; runs and batches that made or used them keep their records.</p>
      <ul className="chosen-names">
        {files.map((f) => (
          <li key={f.fileId}>{f.filename}</li>
        ))}
      </ul>
      {failed.length ? (
        <p role="alert" className="error">
          Not deleted: {failed.join(", ")}. Try again.
        </p>
      ) : null}
      <div className="actions">
        <button type="button" className="danger" disabled={busy} onClick={() => void confirm()}>
          {busy ? "Deleting…" : files.length === 1 ? "Delete it" : `Delete all ${files.length}`}
        </button>
        {/* The safe answer has the focus: Enter on an opened dialog deletes nothing. */}
        <button type="button" className="secondary" disabled={busy} data-autofocus onClick={onClose}>
          Keep them
        </button>
      </div>
    </Dialog>
  );
}
