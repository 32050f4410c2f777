/**
 * One workflow run (the completion e-mail's link): the workflow's name, the version run, how it
 * started, when, how long, what it cost and its status; steering; a waiting approval's decision;
 * the graph coloured by each step's status; the timeline; each step with its attempts, error,
 * files and log. Kept live by the run's event stream (polling while the stream is not open).
 */
import type { Approval, RunDetail, Step } from "@vektor/shared/schemas/workflow";
import { isTerminalRun } from "@vektor/shared/schemas/vocab";
import { Link, useParams } from "@tanstack/react-router";
import { lazy, Suspense, useCallback, useMemo } from "react";
import { useCatalog, useVersion, useVersions, useWorkflow } from "../../api/workflows";
import { formatDate, plural } from "../../components/format";
import { ErrorText } from "../../components/Guard";
import { Decision } from "./runs/Decision";
import { FileLinks } from "./runs/FileLinks";
import { adviceFor, elapsed, formatDuration, stepWord, timeLeft, toneOf } from "./runs/run-view";
import { Steering } from "./runs/Steering";
import { StepList } from "./runs/StepList";
import { Timeline } from "./runs/Timeline";
import { useNow } from "./runs/use-now";
import { useRunLive, type LiveMode } from "./runs/use-run-live";
import "./runs/runs.css";

const RunGraph = lazy(() => import("./runs/RunGraph"));

export function RunScreen() {
  const { runId } = useParams({ from: "/workflows/runs/$runId" });
  // Another run (a replay opened) starts afresh: its own stream, its own state.
  return <RunPage key={runId} runId={runId} />;
}

function RunPage({ runId }: { runId: string }) {
  const { detail, mode } = useRunLive(runId);
  if (detail.isPending) return <Frame title="Workflow run">Loading…</Frame>;
  if (!detail.data)
    return (
      <Frame title="Workflow run">
        <ErrorText error={detail.error} />
      </Frame>
    );
  return <RunView detail={detail.data} mode={mode} />;
}

function Frame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="screen run-screen">
      <h1>{title}</h1>
      {children}
    </div>
  );
}

function RunView({ detail, mode }: { detail: RunDetail; mode: LiveMode }) {
  const { run, steps, approvals } = detail;
  const workflow = useWorkflow(run.workflowId);
  const versions = useVersions(run.workflowId, true);
  const catalog = useCatalog();
  const ended = isTerminalRun(run.status);
  const now = useNow(ended ? null : 1000);
  const titles = useMemo(() => new Map((catalog.data ?? []).map((c) => [c.type, c.title])), [catalog.data]);
  const titleOf = useCallback((s: Step) => titles.get(s.type) ?? s.type, [titles]);
  const words = useMemo(() => new Map(steps.filter((s) => !s.parentNodeId).map((s) => [s.nodeId, stepWord(s, run)])), [steps, run]);

  const list = versions.data ?? [];
  const numberOf = (versionId: string) => {
    const i = list.findIndex((v) => v.versionId === versionId);
    return i < 0 ? null : list.length - i;
  };
  const runN = numberOf(run.versionId);
  const currentVersionId = workflow.data?.versionId ?? "";
  const currentN = numberOf(currentVersionId);
  const runVersion = runN ? `version ${runN}` : "the version it ran";
  const ms = elapsed(run.startedAt ?? run.createdAt, run.finishedAt, now);
  const pending = approvals.filter((a) => a.status === "pending");
  const version = list.find((v) => v.versionId === run.versionId);

  return (
    <Frame title={workflow.data?.name ?? "Workflow run"}>
      <p className="hint">
        Run {run.runId} of{" "}
        <Link to="/workflows/$id" params={{ id: run.workflowId }}>
          the workflow
        </Link>{" "}
        · <Link to="/workflows/runs">All runs</Link>
      </p>
      <section className="card" aria-labelledby="run-summary">
        <h2 id="run-summary">Summary</h2>
        <dl className="facts">
          <dt>Status</dt>
          <dd>
            <span className={`status-word tone-${toneOf(run.status)}`} aria-live="polite" data-testid="run-status">
              {run.status}
            </span>
          </dd>
          <dt>Version run</dt>
          <dd>
            {runN ? `Version ${runN}` : "…"}
            {version && version.name !== workflow.data?.name ? ` (${version.name})` : ""}
            {run.versionId === currentVersionId ? ", the current one" : currentN ? `; the current one is version ${currentN}` : ""}
          </dd>
          <dt>Started by</dt>
          <dd>
            {run.trigger}
            {run.replayOf ? (
              <>
                {" "}
                of{" "}
                <Link to="/workflows/runs/$runId" params={{ runId: run.replayOf }}>
                  an earlier run
                </Link>
              </>
            ) : null}
          </dd>
          <dt>Started</dt>
          <dd>{formatDate(run.startedAt ?? run.createdAt)}</dd>
          <dt>Duration</dt>
          <dd>{ms === null ? "not started" : `${formatDuration(ms)}${ended ? "" : " so far"}`}</dd>
          <dt>Credits</dt>
          <dd>
            {plural(run.credits, "credit")} charged{run.refunded ? `, ${run.refunded} refunded` : ""}
          </dd>
          <dt>Files</dt>
          <dd>
            {run.inputFileIds.length} in, {run.outputFileIds.length} out
          </dd>
        </dl>
        <p className="hint" data-live={ended ? "ended" : mode}>
          {ended ? "" : mode === "stream" ? "Following the run live." : "Checking the run every few seconds."}
        </p>
        {run.error ? (
          <div className="step-error">
            <p className="error">
              <code>{run.error.code}</code>: {run.error.message}
            </p>
            <p className="hint">What to do: {adviceFor(run.error.code)}</p>
          </div>
        ) : null}
        <Steering run={run} steps={steps} runVersion={runVersion} currentVersion={currentN ? `version ${currentN}` : "the current version"} currentVersionId={currentVersionId} />
      </section>
      {pending.length ? <PendingApprovals runId={run.runId} approvals={pending} titleOf={(id) => {
            const s = steps.find((x) => x.nodeId === id);
            return s ? titleOf(s) : id;
          }} now={now} /> : null}
      {run.outputFileIds.length ? (
        <section className="card" aria-labelledby="run-results">
          <h2 id="run-results">Results</h2>
          <FileLinks fileIds={run.outputFileIds} label="Results" />
        </section>
      ) : null}
      <section className="card" aria-labelledby="run-graph">
        <h2 id="run-graph">Graph</h2>
        {catalog.data ? <GraphOf workflowId={run.workflowId} versionId={run.versionId} catalog={catalog.data} words={words} /> : <p className="hint">Loading the graph…</p>}
      </section>
      <section className="card" aria-labelledby="run-timeline">
        <h2 id="run-timeline">Timeline</h2>
        <Timeline run={run} steps={steps} titleOf={titleOf} now={now} />
      </section>
      <section className="card" aria-labelledby="run-steps">
        <h2 id="run-steps">Steps</h2>
        {steps.length ? <StepList run={run} steps={steps} titleOf={titleOf} now={now} /> : <p>No step yet.</p>}
      </section>
    </Frame>
  );
}

function PendingApprovals({ runId, approvals, titleOf, now }: { runId: string; approvals: Approval[]; titleOf: (nodeId: string) => string; now: number }) {
  return (
    <section className="card" aria-labelledby="run-approvals">
      <h2 id="run-approvals">Waiting for approval</h2>
      {approvals.map((a) => (
        <div key={a.nodeId} className="run-approval">
          <p>
            <strong>{titleOf(a.nodeId)}</strong> <span className="hint">({a.nodeId})</span>: asked {formatDate(a.requestedAt)}, {timeLeft(a.expiresAt, now)}.
          </p>
          <Decision runId={runId} nodeId={a.nodeId} what="this run" />
        </div>
      ))}
    </section>
  );
}

function GraphOf(props: { workflowId: string; versionId: string; catalog: NonNullable<ReturnType<typeof useCatalog>["data"]>; words: ReadonlyMap<string, string> }) {
  const version = useVersion(props.workflowId, props.versionId);
  if (!version.data) return version.error ? <ErrorText error={version.error} /> : <p className="hint">Loading the graph…</p>;
  return (
    <Suspense fallback={<p className="hint">Loading the graph…</p>}>
      <RunGraph graphJson={version.data.graphJson} catalog={props.catalog} words={props.words} />
    </Suspense>
  );
}
