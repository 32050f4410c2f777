/**
 * Approvals: the approvals waiting on the caller (or those decided), each with its workflow and
 * run, when it was asked, the time left, the files it gates (download and preview), and Approve /
 * Reject with a Note. Deciding one already decided, or past its time, shows the server's reason.
 */
import { APPROVAL_FILTERS, type ApprovalFilter, type ApprovalItem } from "@vektor/shared/schemas/workflow";
import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { useApprovalsPage } from "../../../api/workflows";
import { formatDate, plural } from "../../../components/format";
import { ErrorText } from "../../../components/Guard";
import { PageButtons, useCursors } from "../../../components/Pager";
import { SelectField } from "../../../components/SelectField";
import { Decision } from "./Decision";
import { StoredFileLink } from "./FileLinks";
import { timeLeft } from "./run-view";
import { useNow } from "./use-now";
import "./runs.css";

const FILTER_LABEL: Record<ApprovalFilter, string> = { pending: "Waiting", decided: "Decided or ended", all: "All" };

export function ApprovalsScreen() {
  const id = useId();
  const [status, setStatus] = useState<ApprovalFilter>("pending");
  return (
    <div className="screen">
      <h1>Approvals</h1>
      <p>
        Runs that wait for your decision. <Link to="/workflows/runs">All runs</Link>
      </p>
      <SelectField id={`${id}-show`} label="Show" value={status} choices={APPROVAL_FILTERS.map((f) => ({ value: f, label: FILTER_LABEL[f] }))} onChange={(v) => setStatus(v as ApprovalFilter)} />
      <ApprovalList key={status} status={status} />
    </div>
  );
}

function ApprovalList({ status }: { status: ApprovalFilter }) {
  const cursors = useCursors();
  const page = useApprovalsPage(status, cursors.current);
  const now = useNow(1000);
  const items = page.data?.items ?? [];
  return (
    <section className="card" aria-labelledby="approvals-title">
      <h2 id="approvals-title">{FILTER_LABEL[status]}</h2>
      <ErrorText error={page.error} />
      {page.isPending ? <p>Loading…</p> : items.length === 0 ? <p>{status === "pending" ? "Nothing waits for you." : "No approvals."}</p> : null}
      {items.length ? (
        <ul className="approval-list" aria-label="Approvals">
          {items.map((a) => (
            <ApprovalEntry key={`${a.runId}/${a.nodeId}`} item={a} now={now} />
          ))}
        </ul>
      ) : null}
      <PageButtons cursors={cursors} nextCursor={page.data?.nextCursor} />
    </section>
  );
}

function ApprovalEntry({ item: a, now }: { item: ApprovalItem; now: number }) {
  const id = useId();
  return (
    <li className="approval-item" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {a.workflowName}: {a.nodeTitle}
      </h3>
      <p>
        <Link to="/workflows/runs/$runId" params={{ runId: a.runId }}>
          Open the run of {a.workflowName}
        </Link>
        <span className="hint">
          {" "}
          · asked {formatDate(a.requestedAt)} · {a.status === "pending" ? timeLeft(a.expiresAt, now) : `${a.status}${a.decidedAt ? ` ${formatDate(a.decidedAt)}` : ""}`}
        </span>
      </p>
      {a.note ? <p>Note: {a.note}</p> : null}
      {a.files.length ? (
        <>
          <p className="hint">{plural(a.files.length, "file")} waiting on this decision:</p>
          <ul className="file-links" aria-label={`Files of ${a.workflowName}`}>
            {a.files.map((f) => (
              <StoredFileLink key={f.fileId} fileId={f.fileId} name={f.name} mime="" size={f.sizeBytes} />
            ))}
          </ul>
        </>
      ) : null}
      {a.status === "pending" ? <Decision runId={a.runId} nodeId={a.nodeId} what={`this run of ${a.workflowName}`} /> : null}
    </li>
  );
}
