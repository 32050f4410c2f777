/**
 * Run: pick some of your uploaded files (or upload more now), see what the run charges (POST
 * /estimate: credits, steps of maxSteps; more steps than allowed and the run is refused), start
 * it, and go to the run's page. Runs the saved version.
 */
import { useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "../../../api/client";
import { FILES_KEY, mimeFor, uploadFile } from "../../../api/files";
import { useRecentFiles, useStartRun, useWorkflowEstimate, type WorkflowSettings } from "../../../api/workflows";
import { Dialog } from "../../../components/Dialog";
import { formatBytes, plural } from "../../../components/format";
import { ErrorText } from "../../../components/Guard";

interface Props {
  workflowId: string;
  versionId: string;
  name: string;
  dirty: boolean;
  settings: WorkflowSettings | undefined;
  onClose: () => void;
}

export function RunDialog({ workflowId, versionId, name, dirty, settings, onClose }: Props) {
  const id = useId();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const files = useRecentFiles();
  const estimate = useWorkflowEstimate(workflowId, versionId);
  const start = useStartRun(workflowId);
  const [chosen, setChosen] = useState<string[]>([]);
  const [uploading, setUploading] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState("");
  const uploaded = (files.data ?? []).filter((f) => f.status === "UPLOADED");
  const off = settings?.flags["workflow.enabled"] === false;
  const over = estimate.data && estimate.data.steps > estimate.data.maxSteps;

  const upload = async (list: File[]) => {
    setUploadError("");
    const ids: string[] = [];
    for (const file of list) {
      setUploading(file.name);
      try {
        ids.push((await uploadFile(file, mimeFor(file), () => {})).fileId);
      } catch (err) {
        setUploadError(`${file.name}: ${errorMessage(err)}`);
      }
    }
    setUploading(null);
    await queries.invalidateQueries({ queryKey: FILES_KEY });
    setChosen((c) => [...c, ...ids]);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate(chosen, { onSuccess: (r) => void navigate({ to: "/workflows/runs/$runId", params: { runId: r.runId } }) });
  };

  return (
    <Dialog title={`Run ${name}`} onClose={onClose} wide>
      <form onSubmit={submit}>
        {dirty ? <p className="notice">You have unsaved changes: a run uses the saved version. Save first to run them.</p> : null}
        <fieldset>
          <legend>Files for the run</legend>
          {files.isPending ? <p>Loading files…</p> : null}
          {files.data && uploaded.length === 0 ? <p className="hint">You have no uploaded files yet; upload some below, or run without files.</p> : null}
          <div className="file-choices">
            {uploaded.map((f) => (
              <div className="field field-check" key={f.fileId}>
                <input
                  id={`${id}-${f.fileId}`}
                  type="checkbox"
                  checked={chosen.includes(f.fileId)}
                  onChange={(e) => setChosen((c) => (e.target.checked ? [...c, f.fileId] : c.filter((x) => x !== f.fileId)))}
                />
                <label htmlFor={`${id}-${f.fileId}`}>{f.filename}</label>
                <small className="hint">{formatBytes(f.size)}</small>
              </div>
            ))}
          </div>
          <div className="field">
            <label htmlFor={`${id}-upload`}>Upload files now</label>
            <input id={`${id}-upload`} type="file" multiple disabled={uploading !== null} onChange={(e) => void upload([...(e.target.files ?? [])])} />
            {uploading ? <small className="hint">Uploading {uploading}…</small> : null}
          </div>
          <ErrorText error={files.error} message={uploadError} />
        </fieldset>
        <p id={`${id}-estimate`}>
          {estimate.data
            ? `${plural(chosen.length, "file")}: this run costs ${plural(estimate.data.credits, "credit")} (${estimate.data.steps} of ${estimate.data.maxSteps} steps).`
            : estimate.isPending
              ? "Working out the charge…"
              : ""}
        </p>
        {over ? (
          <p className="error">
            This workflow has {estimate.data!.steps} charged steps, more than the {estimate.data!.maxSteps} a run may have: the run will be refused. Remove steps (or sub-workflow steps) first.
          </p>
        ) : null}
        {off ? <p className="notice">Workflows are turned off by the administrator (workflow.enabled): runs cannot start.</p> : null}
        <ErrorText error={estimate.error ?? start.error} />
        <div className="actions">
          <button type="submit" disabled={start.isPending || off || uploading !== null} aria-describedby={`${id}-estimate`}>
            Start run
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
