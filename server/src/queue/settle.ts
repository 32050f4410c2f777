/**
 * Recording what became of a claimed job, for the runner's control kinds and for an executor
 * that runs its kind itself (tools/tool-run.ts): only the claim that still owns the job (same
 * attempt, still running) may record, in one transaction with what the outcome causes, so a job
 * ends at most once and its consequences are written exactly once.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import { columnsOf, into, intoColumns, reusableFamily } from "../db/reusable";
import type { Db, Tx } from "../db/client";
import { transactionWithEnd } from "../db/transaction-end";
import { job } from "../db/schema";
import { requeue } from "./control";
import type { Failure, ToolOutcome } from "./registry";
import type { JobRow } from "./kinds";

/** Still running under this claim: a job taken over by another claim is not ours to settle. */
export function owns(row: JobRow): SQL {
  return and(eq(job.id, row.id), eq(job.status, "running"), eq(job.attempts, row.attempts))!;
}

/** The columns an ending writes (the runner clears the lease and sets finishedAt). */
export type Ending = Pick<typeof job.$inferInsert, "status" | "progress" | "errorCode" | "errorMessage" | "outputFileIds">;

/** A tool job's ending as its outcome says (the tool.run executor records it; its hook reads it back from the same). */
export function toolEnding(outcome: ToolOutcome): Ending & { status: "succeeded" | "failed" | "cancelled" } {
  if (outcome.ok) return { status: "succeeded", progress: 100, outputFileIds: outcome.outputFileIds, errorCode: null, errorMessage: null };
  return { status: outcome.cancelled ? "cancelled" : "failed", errorCode: outcome.error.code, errorMessage: outcome.error.message };
}

/**
 * Ends the job as `ending` says if this claim still owns it, and then, in the same transaction,
 * runs `then` (the kind's completion hook, an executor's own writes). Answers the ended row once
 * committed, or null when this claim did not own the job (nothing was written).
 */
export function settle(db: Db, row: JobRow, ending: Ending, then?: (tx: Tx) => Promise<void>): Promise<JobRow | null> {
  // With end hooks: what `then` queues (a workflow's next tool job) may start here once committed.
  return transactionWithEnd(db, async (tx) => {
    const [done] = await end(tx, row, ending);
    if (!done) return null;
    await then?.(tx);
    return done;
  });
}

/**
 * As settle, in one statement instead of a transaction (one round trip instead of at least
 * three), for an ending with no consequences to write (tools/record-success.ts records a tool
 * job's success with its output rows in one statement too). Answers the ended row, or null when
 * this claim did not own the job.
 */
export async function settleAtOnce(db: Db, row: JobRow, e: Ending): Promise<JobRow | null> {
  const [ended] = await end(db, row, e);
  return ended ?? null;
}

/** The ending's write if this claim still owns the job: built once per set of columns an ending sets (db/reusable.ts). */
function end(db: Db | Tx, row: JobRow, ending: Ending): Promise<JobRow[]> {
  return endings(columnsOf(ending))(db, { ...ending, finishedAt: new Date(), id: row.id, attempts: row.attempts });
}

const endings = reusableFamily((db, columns) =>
  db
    .update(job)
    .set({ ...intoColumns(columns), finishedAt: into("finishedAt"), leaseUntil: null })
    .where(and(eq(job.id, sql.placeholder("id")), eq(job.status, "running"), eq(job.attempts, sql.placeholder("attempts"))))
    .returning(),
);

/** Back in the queue after a failed attempt, not before `delayMs` from now: the back-off survives a restart. */
export async function retryLater(db: Db, row: JobRow, f: Failure, delayMs: number): Promise<void> {
  await requeue(db, owns(row), { error: f, delayMs });
}

/** Tries again after `delayMs` without counting the attempt: what stopped it was an outage, not the job. */
export async function waitOutOutage(db: Db, row: JobRow, f: Failure, delayMs: number): Promise<void> {
  await requeue(db, owns(row), { error: f, delayMs, uncounted: true });
}

/** A running job's progress in percent (best effort: a lost write is only a coarser bar). */
export function reportProgress(db: Db, row: JobRow, pct: number): void {
  void db
    .update(job)
    .set({ progress: pct })
    .where(and(eq(job.id, row.id), eq(job.status, "running")))
    .catch(() => {});
}
