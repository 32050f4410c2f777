/** Runs as a table: when (a link to the run), status, how it started, how long, credits; with each one's workflow when `names` is given. */
import type { Run } from "@vektor/shared/schemas/workflow";
import { Link } from "@tanstack/react-router";
import { formatDate } from "../../../components/format";
import { Table } from "../../../components/Table";
import { elapsed, formatDuration, toneOf } from "./run-view";

export function RunTable({ runs, names }: { runs: readonly Run[]; names?: ReadonlyMap<string, string> }) {
  const now = Date.now();
  return (
    <Table headers={[...(names ? ["Workflow"] : []), "Run", "Status", "Started by", "Duration", "Credits"]}>
      {runs.map((r) => {
        const ms = elapsed(r.startedAt ?? r.createdAt, r.finishedAt, now);
        return (
          <tr key={r.runId}>
            {names ? <td>{names.get(r.workflowId) ?? "a deleted workflow"}</td> : null}
            <td>
              <Link to="/workflows/runs/$runId" params={{ runId: r.runId }} aria-label={`Run of ${formatDate(r.createdAt)}${names ? ` of ${names.get(r.workflowId) ?? "a workflow"}` : ""}`}>
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
