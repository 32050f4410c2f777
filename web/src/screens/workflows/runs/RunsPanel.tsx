/** The editor's Run history panel: this workflow's own runs, newest first, a page at a time, each linking to its run page. */
import { Link } from "@tanstack/react-router";
import { useEffect, useId, useRef } from "react";
import { useWorkflowRuns } from "../../../api/workflows";
import { formatDate } from "../../../components/format";
import { ErrorText } from "../../../components/Guard";
import { PageButtons, useCursors } from "../../../components/Pager";
import { toneOf } from "./run-view";
import "./runs.css";

export function RunsPanel({ workflowId, onClose }: { workflowId: string; onClose: () => void }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const cursors = useCursors();
  const runs = useWorkflowRuns(workflowId, cursors.current);
  const items = runs.data?.items ?? [];
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="side-panel" aria-labelledby={`${id}-title`}>
      <div className="panel-head">
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
          Run history
        </h2>
        <button type="button" className="secondary small" onClick={onClose}>
          Close panel
        </button>
      </div>
      <ErrorText error={runs.error} />
      {runs.isPending ? <p>Loading runs…</p> : items.length === 0 ? <p>Never run.</p> : null}
      <ul className="versions" aria-label="Runs of this workflow">
        {items.map((r) => (
          <li key={r.runId}>
            <Link to="/workflows/runs/$runId" params={{ runId: r.runId }}>
              {formatDate(r.createdAt)}
            </Link>{" "}
            <span className={`status-word tone-${toneOf(r.status)}`}>{r.status}</span> <span className="hint">{r.trigger}</span>
          </li>
        ))}
      </ul>
      <PageButtons cursors={cursors} nextCursor={runs.data?.nextCursor} />
      <p>
        <Link to="/workflows/runs">All runs</Link>
      </p>
    </section>
  );
}
