/**
 * Approve or Reject one approval, with a Note: on the run page and in the approvals inbox.
 * A refusal (decided already, timed out) is the server's message, shown beside the buttons.
 */
import { useId, useState } from "react";
import { useDecide } from "../../../api/workflows";
import { ErrorText } from "../../../components/Guard";

export function Decision({ runId, nodeId, what }: { runId: string; nodeId: string; what: string }) {
  const id = useId();
  const [note, setNote] = useState("");
  const decide = useDecide();
  const send = (decision: "approved" | "rejected") => decide.mutate({ runId, nodeId, decision, ...(note.trim() ? { note: note.trim() } : {}) });
  return (
    <div className="decision">
      <div className="field">
        <label htmlFor={`${id}-note`}>Note</label>
        <textarea id={`${id}-note`} rows={2} maxLength={2000} value={note} aria-describedby={`${id}-hint`} onChange={(e) => setNote(e.target.value)} />
        <small id={`${id}-hint`} className="hint">
          Kept with the decision on {what}.
        </small>
      </div>
      <div className="actions">
        <button type="button" disabled={decide.isPending} onClick={() => send("approved")}>
          Approve
        </button>
        <button type="button" className="danger" disabled={decide.isPending} onClick={() => send("rejected")}>
          Reject
        </button>
      </div>
      {decide.isSuccess ? <p role="status">{decide.data.decision === "approved" ? "Approved." : "Rejected."}</p> : null}
      <ErrorText error={decide.error} />
    </div>
  );
}
