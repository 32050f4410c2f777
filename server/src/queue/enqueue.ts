/**
 * Putting work on the queue: one insert, in the caller's transaction when it has one, so a
 * transition and the work it causes commit together. A dedupe key that a live job already holds
 * makes the insert a no-op: the same work is never queued twice.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { job } from "../db/schema";
import { newId } from "../lib/ids";
import { LANES, type JobData, type JobKind } from "./kinds";

export interface Enqueue<K extends JobKind> {
  kind: K;
  data: JobData[K];
  userId?: string | null;
  /** Not before this moment (delayed jobs, back-off). */
  runAfter?: Date;
  dedupeKey?: string;
}

/** Queues a control job; returns its id, or null when a live job holds the same dedupe key. */
export async function enqueue<K extends Exclude<JobKind, "tool.run">>(db: Db | Tx, e: Enqueue<K>): Promise<string | null> {
  const id = newId("job");
  const rows = await db
    .insert(job)
    .values({
      id,
      kind: e.kind,
      lane: LANES[e.kind],
      type: e.kind,
      userId: e.userId ?? null,
      status: "queued",
      params: {},
      inputFileIds: [],
      data: e.data as Record<string, unknown>,
      runAfter: e.runAfter ?? sql`now()`,
      dedupeKey: e.dedupeKey ?? null,
      origin: "system",
    })
    .onConflictDoNothing({ target: job.dedupeKey, where: sql`status in ('queued', 'running')` })
    .returning({ id: job.id });
  return rows[0]?.id ?? null;
}

/**
 * The queued job holding `dedupeKey`, when it waits for a later moment, becomes due now and one
 * idle lane of its kind is woken (the job table's triggers notify inserts and requeues only).
 * Returns its id, or null when no job waits under that key (none, running, or already due).
 * What made a duplicate enqueue a no-op can still be asked for sooner this way.
 */
export async function dueNow(db: Db | Tx, dedupeKey: string): Promise<string | null> {
  const rows = await db
    .update(job)
    .set({ runAfter: sql`now()` })
    .where(and(eq(job.dedupeKey, dedupeKey), eq(job.status, "queued"), sql`${job.runAfter} > now()`))
    .returning({ id: job.id, lane: job.lane });
  if (!rows[0]) return null;
  await db.execute(sql`select pg_notify('vektor_jobs', ${rows[0].lane})`);
  return rows[0].id;
}
