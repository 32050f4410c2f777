/**
 * The queue handlers of the workflow engine: `workflow.step` executes one node (its kind's
 * execute, outside any transaction) and records what it gave under the run's lock;
 * `approval.timeout` ends an undecided approval; the tool.run hook ends op steps. Each is safe to
 * run twice: the step's attempt number and status decide whether its result still counts.
 */
import { isTerminalRun } from "@vektor/shared/schemas/vocab";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { transactionWithEnd } from "../db/transaction-end";
import { workflowApproval, workflowStep } from "../db/schema";
import type { ControlHandler } from "../queue/registry";
import type { Settings } from "../config/keys";
import { formatDuration } from "../lib/duration";
import type { ObjectStore } from "../storage/types";
import { lockRun, type Engine, type StepRow } from "./engine";
import { executeStep } from "./execute";
import { runById, stepById } from "./statements";

const STEP_RETRY = { attempts: 5, baseDelayMs: 200, maxDelayMs: 30_000 };
/** Queue jobs are where steps execute: the transitions they make run the next inline steps at once. */
const INLINE = { inline: true };

export interface WorkflowHandlerDeps {
  db: Db;
  store: ObjectStore;
  config: Settings;
  engine: Engine;
}

export function workflowStepHandler(d: WorkflowHandlerDeps): ControlHandler<"workflow.step"> {
  return {
    kind: "workflow.step",
    retry: STEP_RETRY,
    async run(job) {
      const { runId, stepId, attempt } = job.data;
      const [run] = await runById(d.db, { id: runId });
      const [step] = await stepById(d.db, { id: stepId });
      if (!run || !step || isTerminalRun(run.status) || !stillOwns(step, attempt)) return;
      const logs: string[] = [];
      const outcome = await executeStep(d.db, d.store, run, step, job.id, logs);
      // Read before the transaction: on PGlite (one connection) a query outside it would wait for it forever.
      const defaultTimeout = await d.config.get("workflow.approval_timeout_seconds_default");
      // With end hooks: a tool job queued in the transition may start in a lane here once committed.
      await transactionWithEnd(d.db, async (tx) => {
        const locked = await lockRun(tx, runId);
        const [fresh] = await stepById(tx, { id: stepId });
        if (!locked || isTerminalRun(locked.status) || !fresh || !stillOwns(fresh, attempt)) return;
        const changes = await d.engine.transition(tx, locked, fresh, outcome, logs, defaultTimeout);
        await d.engine.recordStep(tx, locked, stepId, attempt, changes, logs, INLINE);
      });
    },
    // Every try failed (storage or database trouble): the step fails, so the run ends instead of waiting forever.
    async onFailed(tx, job, failure) {
      const run = await lockRun(tx, job.data.runId);
      if (!run || isTerminalRun(run.status)) return;
      await d.engine.failStep(tx, run, job.data.stepId, job.data.attempt, { code: "STEP_FAILED", message: `The step could not be run: ${failure.message}` }, [], INLINE);
    },
  };
}

/** The step's attempt still running, and its tool jobs not yet queued (a re-run after a crash must not queue them twice). */
function stillOwns(step: StepRow, attempt: number): boolean {
  return step.status === "running" && step.attempts === attempt && step.jobIds.length === 0;
}

export function approvalTimeoutHandler(d: WorkflowHandlerDeps): ControlHandler<"approval.timeout"> {
  return {
    kind: "approval.timeout",
    retry: STEP_RETRY,
    async run(job) {
      const { runId, nodeId } = job.data;
      await d.db.transaction(async (tx) => {
        const run = await lockRun(tx, runId);
        if (!run || isTerminalRun(run.status)) return;
        const expired = await tx
          .update(workflowApproval)
          .set({ status: "expired", decidedAt: new Date() })
          .where(and(eq(workflowApproval.runId, runId), eq(workflowApproval.nodeId, nodeId), eq(workflowApproval.status, "pending")))
          .returning();
        if (!expired.length) return;
        const [step] = await tx.select().from(workflowStep).where(and(eq(workflowStep.runId, runId), eq(workflowStep.nodeId, nodeId)));
        const seconds = Math.round((expired[0].expiresAt.getTime() - expired[0].requestedAt.getTime()) / 1000);
        await d.engine.failStep(tx, run, step.id, step.attempts, { code: "APPROVAL_TIMEOUT", message: `Nobody decided within ${formatDuration(seconds * 1000)}` }, [], INLINE);
      });
    },
    // The timeout could not be applied: end the run rather than leave it waiting past its limit.
    async onFailed(tx, job, failure) {
      const run = await lockRun(tx, job.data.runId);
      if (!run || isTerminalRun(run.status)) return;
      await d.engine.finish(tx, run, "failed", { code: "APPROVAL_TIMEOUT", message: `The approval timed out and could not be closed cleanly: ${failure.message}` });
    },
  };
}
