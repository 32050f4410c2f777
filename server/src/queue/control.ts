/**
 * What the rest of the server may do to jobs already queued: cancel those not started, ask
 * running ones to stop, put ended ones back. Each takes the caller's transaction and a condition
 * naming its jobs (a batch's items, a run's jobs, one job), so a batch cancel, a run cancel and a
 * job cancel are the same statements. The runner's own writes (claim, renew, settle) are runner.ts.
 */
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { job } from "../db/schema";
import type { JobRow } from "./kinds";
import { NOW_MS } from "./claim";

/**
 * The queued jobs among `which` end cancelled and never run; answers them. With a `message` they
 * carry the CANCELLED error (a user's job); without one their error columns stay as they were.
 */
export function cancelQueued(db: Db | Tx, which: SQL, message?: string): Promise<JobRow[]> {
  const error = message === undefined ? {} : { errorCode: "CANCELLED", errorMessage: message };
  return db
    .update(job)
    .set({ status: "cancelled", ...error, finishedAt: new Date() })
    .where(and(which, eq(job.status, "queued")))
    .returning();
}

/**
 * The running jobs among `which` are marked for stopping: their worker stops each at its next
 * lease renewal (the process running one may stop it at once: JobRunner.cancelLocal with the
 * ids answered). The first mark stays.
 */
export function requestStop(db: Db | Tx, which: SQL): Promise<JobRow[]> {
  return db
    .update(job)
    .set({ cancelRequestedAt: sql`coalesce(${job.cancelRequestedAt}, now())` })
    .where(and(which, eq(job.status, "running")))
    .returning();
}

/** How a job goes back in the queue: as new (a user's retry), or after a failed attempt, not before `delayMs`. */
export type Requeue = { fresh: true } | { error: { code: string; message: string }; delayMs: number; uncounted?: boolean };

/**
 * The jobs matching `which` are queued again. Fresh: as if never run (attempts, progress,
 * outputs, times and errors cleared). After a failed attempt: the attempt stays counted, the
 * error is kept for the record and the back-off is stored as run_after, so it survives a restart.
 */
export function requeue(db: Db | Tx, which: SQL, how: Requeue): Promise<{ id: string }[]> {
  const set: PgUpdateSetSource<typeof job> =
    "fresh" in how
      ? { status: "queued", attempts: 0, errorCode: null, errorMessage: null, outputFileIds: [], progress: 0, leaseUntil: null, startedAt: null, finishedAt: null }
      : {
          status: "queued",
          errorCode: how.error.code,
          errorMessage: how.error.message,
          leaseUntil: null,
          runAfter: sql`${NOW_MS} + make_interval(secs => ${how.delayMs / 1000})`,
          // An attempt that met an outage of ours (the object store away) is not the job's fault.
          ...(how.uncounted ? { attempts: sql`greatest(${job.attempts} - 1, 0)` } : {}),
        };
  return db.update(job).set(set).where(which).returning({ id: job.id });
}
