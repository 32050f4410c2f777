/**
 * Ended jobs leave the table in time. The job table is also the queue, and every tool call,
 * workflow step, sweep and schedule dispatch leaves a row: an idle server alone added over 400 a
 * day (a retention sweep every 10 minutes, a dispatch every 5), kept forever. The retention sweep
 * now deletes, as of its `now`:
 *
 * - internal jobs (every kind but tool.run) that ended, a day after they were queued: nobody
 *   reads them once ended (GET /api/jobs lists tool jobs only), and a day leaves time to look;
 * - tool jobs of API calls and upload-and-run that ended, after JOB_HISTORY_DAYS (the caller's job
 *   history; 0 keeps them). By then their outputs are long gone (retention.output_hours).
 *
 * Batch items and the tool jobs of workflow steps stay: their batch's and run's pages list them.
 */
import { sql } from "drizzle-orm";
import { resultRows, type Db } from "../db/client";

/** Internal jobs are kept this long after they were queued. */
export const INTERNAL_JOBS_KEPT_MS = 24 * 3_600_000;
/** Rows deleted per statement: a long history goes over several sweeps without one long lock. */
const CHUNK = 5000;
/** Statements per sweep at most. */
const MAX_CHUNKS = 20;

/** Deletes the ended jobs past their keeping as of `now`; answers how many. `historyDays` 0: tool jobs are kept. */
export async function pruneEndedJobs(db: Db, now: Date, historyDays: number): Promise<number> {
  const internalCut = new Date(now.getTime() - INTERNAL_JOBS_KEPT_MS).toISOString();
  const historyCut = historyDays > 0 ? new Date(now.getTime() - historyDays * 86_400_000).toISOString() : null;
  let deleted = 0;
  for (let i = 0; i < MAX_CHUNKS; i++) {
    const rows = resultRows<{ n: number }>(
      await db.execute(sql`
        with gone as (
          delete from job where id in (
            select id from job
            where status in ('succeeded', 'failed', 'cancelled')
              and ((kind <> 'tool.run' and created_at < ${internalCut}::timestamptz)
                or (${historyCut}::timestamptz is not null and kind = 'tool.run' and origin in ('api', 'upload') and created_at < ${historyCut}::timestamptz))
            limit ${CHUNK})
          returning 1)
        select count(*)::int as n from gone`),
    );
    const n = Number(rows[0]?.n ?? 0);
    deleted += n;
    if (n < CHUNK) break;
  }
  return deleted;
}
