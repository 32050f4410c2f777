/**
 * The workflow engine: runs a run's flat plan (sub-workflows inlined) as a DAG on the job
 * queue. Every transition happens in a transaction that first locks the run's row, so two
 * steps ending at the same moment in two processes are applied one after the other: a step
 * whose predecessors have all succeeded is started exactly once, and a run reaches its terminal
 * status exactly once (Windmill's worker_flow: a finished step pushes the next in the same
 * transaction). Steps never carry bytes: files pass between them as ids.
 */
import { isReady, predecessors, runOutputs, settleRun, stepInputs, successors, type StepState } from "@vektor/shared/workflows/plan";
import { isTerminalJob, isTerminalRun, TERMINAL_STEP_STATUSES, type TerminalRunStatus } from "@vektor/shared/schemas/vocab";
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { columnsOf } from "../db/reusable";
import { onTransactionEnd } from "../db/transaction-end";
import { job, workflowApproval, workflowRun, workflowStep } from "../db/schema";
import { newId } from "../lib/ids";
import { cancelQueued, requestStop } from "../queue/control";
import { enqueue, enqueueAdmitted, enqueueAll, type Admitted, type EnqueueTool } from "../queue/enqueue";
import type { JobRunner } from "../queue/runner";
import { credit } from "../credits/ledger";
import type { ObjectStore } from "../storage/types";
import { admitMany, isRefusal, type RefusalReason } from "../tools/admission";
import { executeStep, runsInline, type StepOutcome } from "./execute";
import type { ToolJobSpec } from "./nodes/types";
import { finishRun, isoOrNull, lockedRun, recordStep as recordStepColumns, setRunStatus, startStep, stepById, stepsOfRun, writeStep } from "./statements";

export type RunRow = typeof workflowRun.$inferSelect;
export type StepRow = typeof workflowStep.$inferSelect;
export type RunError = { code: string; message: string };

const ACTIVE = new Set(["running", "waiting_approval"]);

/** Called in the transaction that gives a run its terminal status (notifications hook in here). */
export type TerminalHook = (tx: Tx, run: EndedRun) => Promise<void>;
/** A run that has its terminal status. */
export type EndedRun = RunRow & { status: TerminalRunStatus };

/** The run's row, locked for this transaction: the one lock every transition of a run takes. */
export async function lockRun(tx: Tx, runId: string): Promise<RunRow | null> {
  const [run] = await lockedRun(tx, { id: runId });
  return run ?? null;
}

/**
 * How a transition may start the steps it readies. `inline`: kinds that only read the database
 * run right here, in the transition's transaction (the queue's own transitions); otherwise every
 * readied step is queued as a `workflow.step` job (API requests: they record, workers execute).
 */
export interface AdvanceOptions {
  inline?: boolean;
}

export class Engine {
  /**
   * `store`: what inline steps' StepFiles use (inline kinds write no objects; null runs nothing
   * inline). `terminalHooks`: run where a run becomes terminal (completion notifications).
   */
  constructor(
    private readonly store: ObjectStore | null = null,
    private readonly terminalHooks: readonly TerminalHook[] = [],
    /** TOOL_MAX_INPUT_MB: an op step's input larger than this (or than its tool's limit) fails the step before a job is queued. */
    private readonly maxInputBytes = Infinity,
  ) {}

  /** This process's tool lanes (none in a ROLE=api process), and the limits as they are in memory now (null: not known without a read). */
  private toolLanes: { lanes: Pick<JobRunner, "reserveToolLane">; limitsNow: () => { perUser: number; global: number } | null } | null = null;

  /** A step's tool job queued in a transition of this process may start in a free lane here (insertClaimed). */
  runToolsHere(lanes: Pick<JobRunner, "reserveToolLane">, limitsNow: () => { perUser: number; global: number } | null): void {
    this.toolLanes = { lanes, limitsNow };
  }

  /**
   * Starts every pending step whose predecessors all ended well (inline kinds run at once, and
   * the steps they ready after them), then settles the run: waiting, running, or terminal once
   * nothing is left to do. Call it with the run locked.
   */
  async advance(tx: Tx, run: RunRow, opts: AdvanceOptions = {}): Promise<void> {
    if (isTerminalRun(run.status)) return;
    const steps = await stepsOfRun(tx, { runId: run.id });
    const byNode = new Map(steps.map((s) => [s.nodeId, s]));
    const preds = predecessors(run.plan);
    const succs = successors(run.plan);
    const before = (step: StepRow) => (preds.get(step.nodeId) ?? []).map((id) => byNode.get(id)!);
    const ready = (step: StepRow) => isReady(step, before(step));
    let failed = steps.find((s) => s.status === "failed") ?? null;
    const work = steps.filter(ready);
    while (!failed && work.length) {
      const step = work.shift()!;
      const inputs = stepInputs(before(step).map((p) => p.outputFileIds));
      if (!opts.inline || !this.store || !runsInline(step.type)) {
        await this.startStep(tx, run, step, inputs);
        step.status = "running";
        continue;
      }
      await this.runInline(tx, run, step, inputs);
      if (step.status === "failed") failed = step;
      if (step.status !== "succeeded") continue;
      for (const next of succs.get(step.nodeId) ?? []) {
        const s = byNode.get(next)!;
        if (ready(s) && !work.includes(s)) work.push(s);
      }
    }
    await this.settle(tx, run, steps);
  }

  private async startStep(tx: Tx, run: RunRow, step: StepRow, inputs: string[]): Promise<void> {
    const attempt = step.attempts + 1;
    await startStep(tx, { id: step.id, attempts: attempt, inputFileIds: inputs, startedAt: new Date() });
    await enqueue(tx, { kind: "workflow.step", data: { runId: run.id, stepId: step.id, attempt }, userId: run.userId, dedupeKey: `wf.step:${step.id}:${attempt}` });
  }

  /**
   * Executes an inline step inside the transition and records what it gave in one UPDATE:
   * done (succeeded), tool jobs (running until they end), or an error (failed). `step` is
   * updated in place so the caller can go on to its successors without reading the steps again.
   */
  private async runInline(tx: Tx, run: RunRow, step: StepRow, inputs: string[]): Promise<void> {
    Object.assign(step, { status: "running", attempts: step.attempts + 1, inputFileIds: inputs, outputFileIds: [], jobIds: [], errorCode: null, errorMessage: null, startedAt: new Date(), finishedAt: null });
    const logs: string[] = [];
    const outcome = await executeStep(tx, this.store!, run, step, `inline:${step.id}:${step.attempts}`, logs);
    if ("result" in outcome && outcome.result.kind === "approval") throw new Error(`node kind ${step.type} is marked inline but asked to wait for an approval`);
    Object.assign(step, await this.transition(tx, run, step, outcome, logs, 0));
    step.logs = [...step.logs, ...logs];
    await writeStep(tx, { ...step, startedAt: isoOrNull(step.startedAt), finishedAt: isoOrNull(step.finishedAt) });
  }

  /**
   * What a step's outcome makes of it: the one place an outcome becomes a transition, whether
   * the step ran inline in a transition or as a `workflow.step` job. An error fails it; files
   * done succeed it; tool jobs are admitted and queued (the step runs until they end; a refusal
   * fails it); an approval is requested (a timeout of 0 or less takes `approvalDefault`).
   * Answers the step's changed columns, for the caller to write (see recordStep); `logs` gets
   * the lines the transition adds.
   */
  async transition(tx: Tx, run: RunRow, step: StepRow, outcome: StepOutcome, logs: string[], approvalDefault: number): Promise<Partial<StepRow>> {
    const now = new Date();
    if ("error" in outcome) return { status: "failed", errorCode: outcome.error.code, errorMessage: outcome.error.message, finishedAt: now };
    const result = outcome.result;
    if (result.kind === "done") return { status: "succeeded", outputFileIds: result.outputs.map((f) => f.id), finishedAt: now };
    if (result.kind === "approval") return this.requestApproval(tx, run, step, result.timeoutSeconds > 0 ? result.timeoutSeconds : approvalDefault);
    if (result.jobs.length === 0) {
      logs.push("No input this tool accepts: nothing to do");
      return { status: "succeeded", outputFileIds: [], finishedAt: now };
    }
    const admitted = await admitMany(tx, run.userId, result.jobs.map((j) => ({ type: j.type, params: j.params, fileIds: j.inputFileIds })), this.maxInputBytes);
    if (isRefusal(admitted)) return { status: "failed", errorCode: stepErrorCode(admitted.refused), errorMessage: admitted.message, finishedAt: now };
    const jobs = result.jobs.map((j, i): ToolJobSpec => ({ ...j, params: admitted[i].params }));
    return { jobIds: await this.queueToolJobs(tx, run, step, jobs), charged: false };
  }

  /** The run's status from its steps (the shared settleRun); terminal exactly once. */
  private async settle(tx: Tx, run: RunRow, steps: StepRow[]): Promise<void> {
    const settled = settleRun(steps);
    if (settled.status === "failed") {
      const { failed } = settled;
      await this.finish(tx, run, "failed", { code: failed.errorCode ?? "STEP_FAILED", message: `Step ${failed.nodeId}: ${failed.errorMessage ?? "failed"}` });
      return;
    }
    if (settled.status === "succeeded") {
      // Every step succeeded or was skipped: none is left to skip, no approval left pending.
      await this.finish(tx, run, "succeeded", null, runOutputs(run.plan, steps.map(stepState)), true);
      return;
    }
    if (settled.status !== run.status) await setRunStatus(tx, { id: run.id, status: settled.status });
  }

  /**
   * Gives the run its terminal status, once: the guarded UPDATE lets only the first caller
   * through, and only that caller runs the terminal hooks. Unfinished steps are skipped and
   * pending approvals closed (`stepsEnded`: the caller saw every step ended, so there are none).
   */
  async finish(tx: Tx, run: RunRow, status: TerminalRunStatus, error: RunError | null, outputFileIds: string[] = [], stepsEnded = false): Promise<boolean> {
    const [ended] = await finishRun(tx, { id: run.id, status, errorCode: error?.code ?? null, errorMessage: error?.message ?? null, outputFileIds, finishedAt: new Date() });
    if (!ended) return false;
    if (!stepsEnded) await this.closeUnfinished(tx, run);
    for (const hook of this.terminalHooks) await hook(tx, { ...ended, status });
    return true;
  }

  /** A run ending before its steps did: the unfinished ones are skipped, its pending approvals closed. */
  private async closeUnfinished(tx: Tx, run: RunRow): Promise<void> {
    await tx
      .update(workflowStep)
      .set({ status: "skipped", finishedAt: new Date() })
      .where(and(eq(workflowStep.runId, run.id), notInArray(workflowStep.status, [...TERMINAL_STEP_STATUSES])));
    // Only a logic.approval step asks for one (requestApproval): a run without such a node has none to close.
    if (hasApprovals(run.plan)) await tx.update(workflowApproval).set({ status: "cancelled" }).where(and(eq(workflowApproval.runId, run.id), eq(workflowApproval.status, "pending")));
  }

  /** A step's own work is done: record its outputs (only if this attempt still owns it) and move on. */
  completeStep(tx: Tx, run: RunRow, stepId: string, attempt: number, outputFileIds: string[], logs: string[] = [], opts: AdvanceOptions = {}): Promise<void> {
    return this.recordStep(tx, run, stepId, attempt, { status: "succeeded", outputFileIds, finishedAt: new Date() }, logs, opts);
  }

  failStep(tx: Tx, run: RunRow, stepId: string, attempt: number, error: RunError, logs: string[] = [], opts: AdvanceOptions = {}): Promise<void> {
    return this.recordStep(tx, run, stepId, attempt, { status: "failed", errorCode: error.code, errorMessage: error.message, finishedAt: new Date() }, logs, opts);
  }

  /**
   * Writes a transition of a step already started (see transition) if this attempt still owns
   * it, appending `logs`, and moves the run on unless the step is still running (its tool jobs
   * end it later).
   */
  async recordStep(tx: Tx, run: RunRow, stepId: string, attempt: number, changes: Partial<StepRow>, logs: string[] = [], opts: AdvanceOptions = {}): Promise<void> {
    const done = await recordStepColumns(columnsOf(changes))(tx, { ...changes, id: stepId, attempts: attempt, logs: JSON.stringify(logs) });
    if (done.length && changes.status !== undefined) await this.advance(tx, run, opts);
  }

  /** op.<slug>: the step's tool jobs (admitted), in one statement; the step ends when the last of them ends. */
  private async queueToolJobs(tx: Tx, run: RunRow, step: StepRow, specs: ToolJobSpec[]): Promise<string[]> {
    const entries = specs.map((s): EnqueueTool => ({ kind: "tool.run", userId: run.userId, tool: { slug: s.type, params: s.params, inputFileIds: s.inputFileIds }, origin: "workflow", data: { runId: run.id, stepId: step.id } }));
    const claimed = entries.length === 1 ? await this.insertClaimed(tx, entries[0]) : null;
    if (claimed) return [claimed];
    return (await enqueueAll(tx, entries)).map((r) => r.id);
  }

  /**
   * A step's one tool job inserted already claimed for a free tool lane of this process, which
   * runs it once the transition commits (gives the lane back if it does not): no wake-up of every
   * worker process and no claim statement. As a tool call's insert (enqueueAdmitted), only when a
   * claim would take it next anyway; else it is queued. Null where that cannot be (no free lane,
   * a transaction that keeps no end hooks, limits not in memory, inputs refused): enqueue it.
   */
  private async insertClaimed(tx: Tx, entry: EnqueueTool): Promise<string | null> {
    const limits = this.toolLanes?.limitsNow();
    const lane = limits ? this.toolLanes!.lanes.reserveToolLane() : null;
    if (!lane) return null;
    let admitted: Admitted | null = null;
    const ended = (committed: boolean) => {
      if (committed && admitted?.row.status === "running") lane.run({ ...admitted.row, inputFiles: admitted.inputFiles });
      else lane.release();
    };
    if (!onTransactionEnd(tx, ended)) {
      lane.release();
      return null;
    }
    admitted = await enqueueAdmitted(tx, entry, this.maxInputBytes, { ...limits!, leaseMs: lane.leaseMs });
    return admitted?.row.id ?? null;
  }

  /** logic.approval: the step waits; a delayed job ends it when nobody decided in time. */
  private async requestApproval(tx: Tx, run: RunRow, step: StepRow, timeoutSeconds: number): Promise<Partial<StepRow>> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + timeoutSeconds * 1000);
    await tx.insert(workflowApproval).values({ id: newId("apr"), runId: run.id, userId: run.userId, nodeId: step.nodeId, status: "pending", requestedAt: now, expiresAt });
    await enqueue(tx, { kind: "approval.timeout", data: { runId: run.id, nodeId: step.nodeId }, userId: run.userId, runAfter: expiresAt, dedupeKey: `wf.approval:${run.id}:${step.nodeId}:${step.attempts}` });
    return { status: "waiting_approval" };
  }

  /**
   * A tool job of an op step ended (called where its outcome is recorded, `settled` being that
   * job as just recorded): only the step's other jobs are read, none for a step of one job.
   */
  async onToolJobSettled(tx: Tx, runId: string, stepId: string, settled: SettledToolJob): Promise<void> {
    const run = await lockRun(tx, runId);
    if (!run || isTerminalRun(run.status)) return;
    const [step] = await stepById(tx, { id: stepId });
    if (!step || step.status !== "running" || step.jobIds.length === 0) return;
    const others = step.jobIds.filter((id) => id !== settled.id);
    const read = others.length ? await tx.select({ id: job.id, status: job.status, out: job.outputFileIds, code: job.errorCode, message: job.errorMessage }).from(job).where(inArray(job.id, others)) : [];
    const jobs = step.jobIds.includes(settled.id) ? [...read, settled] : read;
    if (!jobs.every((j) => isTerminalJob(j.status))) return;
    const order = new Map(step.jobIds.map((id, i) => [id, i]));
    jobs.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    const bad = jobs.find((j) => j.status !== "succeeded");
    if (bad) return this.failStep(tx, run, step.id, step.attempts, { code: bad.code ?? "TOOL_FAILED", message: bad.message ?? "A tool job did not succeed" }, [], { inline: true });
    return this.completeStep(tx, run, step.id, step.attempts, jobs.flatMap((j) => j.out), [], { inline: true });
  }

  /**
   * Cancel: the run ends cancelled, queued work is dropped, running tool jobs are asked to stop,
   * and the per-step credits of op steps that never started are refunded. Returns the running
   * jobs asked to stop (this process stops its own at once).
   */
  async cancel(tx: Tx, run: RunRow): Promise<{ refunded: number; stopping: string[] }> {
    const steps = await stepsOfRun(tx, { runId: run.id });
    const jobIds = steps.filter((s) => ACTIVE.has(s.status)).flatMap((s) => s.jobIds);
    const stopping = jobIds.length ? await requestStop(tx, inArray(job.id, jobIds)) : [];
    if (jobIds.length) await cancelQueued(tx, inArray(job.id, jobIds), "The workflow run was cancelled");
    await cancelQueued(tx, and(inArray(job.kind, ["workflow.step", "approval.timeout"]), sql`${job.data}->>'runId' = ${run.id}`)!);
    const unstarted = steps.filter((s) => s.charged).length;
    const refund = unstarted * run.perStepCredits;
    if (refund > 0) await credit(tx, run.userId, refund, "workflow_cancel_refund", run.id);
    await tx.update(workflowStep).set({ charged: false }).where(eq(workflowStep.runId, run.id));
    await tx.update(workflowRun).set({ refunded: run.refunded + refund }).where(eq(workflowRun.id, run.id));
    await this.finish(tx, run, "cancelled", { code: "CANCELLED", message: "The run was cancelled" });
    return { refunded: refund, stopping: stopping.map((s) => s.id) };
  }

  /** Retry: the failed run's failed and skipped steps run again on its own plan; free. */
  async retry(tx: Tx, run: RunRow): Promise<void> {
    await tx
      .update(workflowStep)
      .set({ status: "pending", errorCode: null, errorMessage: null, finishedAt: null })
      .where(and(eq(workflowStep.runId, run.id), inArray(workflowStep.status, ["failed", "skipped"])));
    const [reopened] = await tx.update(workflowRun).set({ status: "running", errorCode: null, errorMessage: null, outputFileIds: [], finishedAt: null }).where(eq(workflowRun.id, run.id)).returning();
    await this.advance(tx, reopened);
  }
}

/** A step row as the shared scheduling rules read it. */
function stepState(s: StepRow): StepState {
  return { nodeId: s.nodeId, type: s.type, parentNodeId: s.parentNodeId, status: s.status, outputs: s.outputFileIds };
}

/** The step's errorCode for a refused tool job: the job's own code where there is one (INPUT_TOO_LARGE). */
function stepErrorCode(refused: RefusalReason): string {
  if (refused === "UNKNOWN_TOOL" || refused === "BAD_PARAMS") return "VALIDATION_ERROR";
  return refused === "INPUT_TOO_LARGE" ? "INPUT_TOO_LARGE" : "INPUT_INVALID";
}

/** A tool job's end as its outcome was recorded, in the columns onToolJobSettled reads of the step's jobs. */
export interface SettledToolJob {
  id: string;
  status: "succeeded" | "failed" | "cancelled";
  out: string[];
  code: string | null;
  message: string | null;
}

/** Whether the run's plan has a logic.approval node, the only kind of step that asks for an approval. */
function hasApprovals(plan: RunRow["plan"]): boolean {
  return plan.nodes.some((n) => n.type === "logic.approval");
}
