/**
 * One workflow run (GET /api/workflows/runs/{runId}): status, charge, each step with its status
 * and error, polled until the run ends. A plain stand-in; the run view of the next issue replaces it.
 */
import { Link, useParams } from "@tanstack/react-router";
import { useRunDetail } from "../../api/workflows";
import { formatDate } from "../../components/format";
import { ErrorText, SignedInScreen as Frame } from "../../components/Guard";
import { Table } from "../../components/Table";

export function RunScreen() {
  const { runId } = useParams({ from: "/workflows/runs/$runId" });
  return <Frame title="Workflow run" what="see workflow runs">{() => <RunDetailView runId={runId} />}</Frame>;
}

function RunDetailView({ runId }: { runId: string }) {
  const detail = useRunDetail(runId);
  if (detail.isPending) return <p>Loading…</p>;
  if (!detail.data) return <ErrorText error={detail.error} />;
  const { run, steps } = detail.data;
  return (
    <>
      <section className="card" aria-labelledby="run-title">
        <h2 id="run-title">Run {run.runId}</h2>
        <dl className="facts">
          <dt>Status</dt>
          <dd role="status">{run.status}</dd>
          <dt>Workflow</dt>
          <dd>
            <Link to="/workflows/$id" params={{ id: run.workflowId }}>
              Open the workflow
            </Link>
          </dd>
          <dt>Started by</dt>
          <dd>{run.trigger}</dd>
          <dt>Created</dt>
          <dd>{formatDate(run.createdAt)}</dd>
          <dt>Finished</dt>
          <dd>{run.finishedAt ? formatDate(run.finishedAt) : "not yet"}</dd>
          <dt>Charged</dt>
          <dd>
            {run.credits} credits{run.refunded ? `, ${run.refunded} refunded` : ""}
          </dd>
          <dt>Files</dt>
          <dd>
            {run.inputFileIds.length} in, {run.outputFileIds.length} out
          </dd>
        </dl>
        {run.error ? (
          <p className="error">
            {run.error.code}: {run.error.message}
          </p>
        ) : null}
      </section>
      <section className="card" aria-labelledby="steps-title">
        <h2 id="steps-title">Steps</h2>
        {steps.length === 0 ? <p>No step has started yet.</p> : null}
        {steps.length ? (
          <Table headers={["Step", "Kind", "Status", "Files", "Error"]}>
            {steps.map((s) => (
              <tr key={s.nodeId}>
                <td>{s.nodeId}</td>
                <td>{s.type}</td>
                <td>{s.status}</td>
                <td>
                  {s.inputFileIds.length} in, {s.outputFileIds.length} out
                </td>
                <td className={s.error ? "error" : undefined}>{s.error ? `${s.error.code}: ${s.error.message}` : ""}</td>
              </tr>
            ))}
          </Table>
        ) : null}
      </section>
    </>
  );
}
