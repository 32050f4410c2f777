/** The caller's runs as a table: workflow, when (a link to the run), status, how it started, how long, credits. */
import type { Run } from "@vektor/shared/schemas/workflow";
import { Link } from "@tanstack/react-router";
import { formatDate } from "../../../components/format";
import { Table } from "../../../components/Table";
import { elapsed, formatDuration, toneOf } from "./run-view";

export function RunTable({ runs }: { runs: readonly Run[] }) {
  const now = Date.now();
  return (
    <Table headers={["Workflow", "Run", "Status", "Started by", "Duration", "Credits"]}>
      {runs.map((r) => {
        const ms = elapsed(r.startedAt ?? r.createdAt, r.finishedAt, now);
        const name = r.workflowName ?? "a workflow";
        return (
          <tr key={r.runId}>
            <td>{name}</td>
            <td>
              <Link to="/workflows/runs/$runId" params={{ runId: r.runId }} aria-label={`Run of ${name}, ${formatDate(r.createdAt)}`}>
                {formatDate(r.createdAt)}
              </Link>
            </td>
            <td>
              <span className={`status-word tone-${toneOf(r.status)}`}>{r.status}</span>
            </td>
            <td>{r.trigger}</td>
            <td className="nowrap">{ms === null ? "" : formatDuration(ms)}</td>
            <td>
              {r.credits}
              {r.refunded ? ` (${r.refunded} back)` : ""}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}
