/**
 * Runs: every run of the caller's workflows, newest first, filtered by status and workflow, a page
 * at a time; then the runs made on this device (kept in this browser), with the same filters.
 */
import { RUN_STATUSES, type RunStatus } from "@vektor/shared/schemas/vocab";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { useAllRunsPage, useAllWorkflows, type RunFilter } from "../../../api/workflows";
import { formatDate, plural } from "../../../components/format";
import { ErrorText } from "../../../components/Guard";
import { PageButtons, useCursors } from "../../../components/Pager";
import { SelectField } from "../../../components/SelectField";
import { Table } from "../../../components/Table";
import { listDeviceRuns } from "../../../workflows/runner/device-runs";
import { elapsed, formatDuration, toneOf } from "./run-view";
import { RunTable } from "./RunTable";
import "./runs.css";

export function RunsScreen() {
  const id = useId();
  const [filter, setFilter] = useState<RunFilter>({});
  const workflows = useAllWorkflows();
  const key = `${filter.status ?? ""}/${filter.workflowId ?? ""}`;
  return (
    <div className="screen">
      <h1>Runs</h1>
      <p>
        <Link to="/approvals">Approvals waiting for you</Link> · <Link to="/workflows">Workflows</Link>
      </p>
      <div className="filters" role="group" aria-label="Filter runs">
        <SelectField
          id={`${id}-status`}
          label="Status"
          value={filter.status ?? ""}
          choices={[{ value: "", label: "Any status" }, ...RUN_STATUSES.map((s) => ({ value: s, label: s }))]}
          onChange={(v) => setFilter((f) => ({ ...f, status: (v || undefined) as RunStatus | undefined }))}
        />
        <SelectField
          id={`${id}-workflow`}
          label="Workflow"
          value={filter.workflowId ?? ""}
          choices={[{ value: "", label: "Any workflow" }, ...(workflows.data ?? []).map((w) => ({ value: w.id, label: w.name }))]}
          onChange={(v) => setFilter((f) => ({ ...f, workflowId: v || undefined }))}
        />
      </div>
      {/* A new filter starts again at the first page. */}
      <ServerRuns key={key} filter={filter} />
      <DeviceRuns filter={filter} />
    </div>
  );
}

function ServerRuns({ filter }: { filter: RunFilter }) {
  const cursors = useCursors();
  const page = useAllRunsPage(filter, cursors.current);
  const items = page.data?.items ?? [];
  return (
    <section className="card" aria-labelledby="runs-server">
      <h2 id="runs-server">On the server</h2>
      <ErrorText error={page.error} />
      {page.isPending ? <p>Loading…</p> : items.length === 0 ? <p>{filter.status || filter.workflowId ? "No run matches." : "No runs yet."}</p> : null}
      {items.length ? <RunTable runs={items} /> : null}
      <PageButtons cursors={cursors} nextCursor={page.data?.nextCursor} />
    </section>
  );
}

function DeviceRuns({ filter }: { filter: RunFilter }) {
  const runs = useQuery({ queryKey: ["device-runs", filter.status ?? "", filter.workflowId ?? ""], queryFn: () => listDeviceRuns(filter) });
  const items = runs.data ?? [];
  return (
    <section className="card" aria-labelledby="runs-device">
      <h2 id="runs-device">This device</h2>
      <p className="hint">Runs made in this browser: their files never left it, and they cost no credits.</p>
      <ErrorText error={runs.error} />
      {runs.isPending ? <p>Loading…</p> : items.length === 0 ? <p>No run on this device{filter.status || filter.workflowId ? " matches" : " yet"}.</p> : null}
      {items.length ? (
        <Table headers={["Workflow", "Started", "Status", "Duration", "Results"]}>
          {items.map((r) => {
            const ms = elapsed(r.createdAt, r.finishedAt, Date.now());
            return (
              <tr key={r.id}>
                <td>{r.workflowName}</td>
                <td>{formatDate(r.createdAt)}</td>
                <td>
                  <span className={`status-word tone-${toneOf(r.status)}`}>{r.status}</span>
                  {r.error ? <div className="hint">{r.error.message}</div> : null}
                </td>
                <td className="nowrap">{ms === null ? "" : formatDuration(ms)}</td>
                <td>{plural(r.outputs.length, "file")}</td>
              </tr>
            );
          })}
        </Table>
      ) : null}
    </section>
  );
}
