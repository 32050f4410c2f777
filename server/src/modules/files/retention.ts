/**
 * The retention clean-up as a queue job: each sweep queues the next one in the transaction that
 * records its end, under one dedupe key, so however many processes run there is one sweep every
 * 10 minutes instead of one per process. It also deletes ended jobs past their keeping
 * (queue/history.ts) and runs the database's upkeep (Database.maintain).
 */
import type { RetentionResult } from "@vektor/shared/schemas/config";
import type { Database, Db, Tx } from "../../db/client";
import type { FileService } from "./service";
import type { ControlHandler } from "../../queue/registry";
import { enqueue } from "../../queue/enqueue";
import { pruneEndedJobs } from "../../queue/history";

export const RETENTION_EVERY_MS = 10 * 60_000;

/** Queues the next sweep unless one is already queued or running (every process calls it at start). */
export function scheduleRetention(db: Db | Tx, delayMs = RETENTION_EVERY_MS): Promise<string | null> {
  return enqueue(db, { kind: "retention.sweep", data: {}, runAfter: new Date(Date.now() + delayMs), dedupeKey: "retention.sweep" });
}

/** One sweep as of `now` (the job's and POST /api/admin/system/retention's): expired files and their bytes, then ended jobs past their keeping. */
export async function runRetention(files: FileService, db: Db, now: Date, jobHistoryDays: number): Promise<RetentionResult> {
  const result = await files.runRetention(now);
  return { ...result, deletedJobs: await pruneEndedJobs(db, now, jobHistoryDays) };
}

export function retentionHandler(files: FileService, database: Pick<Database, "maintain" | "db">, jobHistoryDays: number): ControlHandler<"retention.sweep"> {
  return {
    kind: "retention.sweep",
    retry: { attempts: 3, baseDelayMs: 10_000, maxDelayMs: 120_000 },
    async run() {
      await runRetention(files, database.db, new Date(), jobHistoryDays);
      // The rows retention deleted, and the jobs' and files' updates since, leave dead versions.
      await database.maintain();
    },
    onSucceeded: async (tx) => void (await scheduleRetention(tx)),
    onFailed: async (tx) => void (await scheduleRetention(tx)),
  };
}
