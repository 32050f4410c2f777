/** The handler of every job kind, composed once at boot: start-up fails on a kind with none or two. */
import type { Services } from "./services";
import { approvalTimeoutHandler, workflowStepHandler } from "./workflows/step-jobs";
import { JobHandlers, type ToolOutcome } from "./queue/registry";
import type { SettledToolJob } from "./workflows/engine";
import { toolEnding } from "./queue/settle";
import type { JobData, JobRow } from "./queue/kinds";
import { retentionHandler } from "./modules/files/retention";
import { scheduleDispatchHandler, scheduleFireHandler } from "./workflows/triggers/schedule";
import { watchFireHandler } from "./workflows/triggers/watch";
import { notifyEmailHandler } from "./workflows/notify/email";
import { notifyWebhookHandler } from "./workflows/notify/webhook";

export function jobHandlers(s: Omit<Services, "handlers">): JobHandlers {
  const deps = { db: s.database.db, store: s.store, config: s.config, engine: s.engine };
  const triggerDeps = { db: s.database.db, config: s.config, workflows: s.workflows, log: s.log };
  const notifyDeps = { db: s.database.db, config: s.config, log: s.log, timeoutMs: s.env.notifyTimeoutMs, retryBaseMs: s.env.notifyRetryBaseMs, publicUrl: s.env.publicUrl, notifySecrets: s.notifySecrets };
  return new JobHandlers([
    {
      kind: "tool.run",
      // A claim counts whether the job or something else ended its process (a restart, a deploy, an
      // out-of-memory kill): five leaves room for a few restarts and still stops a job that kills every process.
      maxAttempts: 5,
      // A workflow's tool job ends its step (and starts the next ones) where its outcome is recorded.
      async onSettled(tx, row, outcome) {
        const step = stepOf(row);
        if (step) await s.engine.onToolJobSettled(tx, step.runId, step.stepId, settledJob(row.id, outcome));
      },
      // Only a workflow's: every other tool job (a call, a batch item) is recorded in one statement.
      writesOnSettled: (row) => stepOf(row) !== null,
    },
    retentionHandler(s.files, s.database, s.env.jobHistoryDays),
    workflowStepHandler(deps),
    approvalTimeoutHandler(deps),
    scheduleDispatchHandler(triggerDeps),
    scheduleFireHandler(triggerDeps),
    watchFireHandler(triggerDeps),
    notifyWebhookHandler(notifyDeps),
    notifyEmailHandler(notifyDeps),
  ]);
}

/** The job as its outcome is recorded (the tool.run executor records toolEnding's ending). */
function settledJob(id: string, outcome: ToolOutcome): SettledToolJob {
  const e = toolEnding(outcome);
  return { id, status: e.status, out: e.outputFileIds ?? [], code: e.errorCode ?? null, message: e.errorMessage ?? null };
}

/** The workflow step whose tool job this is, or null for a job of its own (a tool call, a batch item). */
function stepOf(row: JobRow): { runId: string; stepId: string } | null {
  const data = row.data as JobData["tool.run"] | null;
  return data?.runId && data.stepId ? { runId: data.runId, stepId: data.stepId } : null;
}
