/**
 * The claim: one statement takes up to `limit` jobs of a lane (FOR UPDATE SKIP LOCKED, so
 * processes never take the same one) under a fresh lease, and says whether due work of the lane
 * remains beyond them. That answer is what lets a lane sleep after a claim instead of asking
 * again to find nothing: an empty claim costs as much as a full one, and on PGlite it runs on the
 * same thread as everything else.
 */
import { getTableColumns, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { perDatabase } from "../db/per-database";
import { file, job } from "../db/schema";
import type { ClaimedJob, InputFile, JobRow, Lane } from "./kinds";

/**
 * "Now" as run_after stores it. The column keeps milliseconds and a cast rounds, so now() stored
 * as it is could land up to half a millisecond after the now() of a claim that follows at once:
 * that claim found the job not yet due, and left it to the next poll (JOB_POLL_MS). Truncated, a
 * job queued now is due now.
 */
export const NOW_MS = sql`date_trunc('milliseconds', now())`;

/** What a claim looks at: jobs whose process died (lease ran out), or due queued ones. */
export const EXPIRED = sql`c.status = 'running' and c.lease_until < now()`;
export const QUEUED = sql`c.status = 'queued' and c.run_after <= now()`;

export interface ClaimArgs {
  lane: Lane;
  /** Tool lanes: the per-user and global limits on running jobs (0: none). */
  perUser: number;
  global: number;
  leaseMs: number;
}

export interface Claim {
  rows: ClaimedJob[];
  /**
   * Due work of the lane (queued, or left by a dead process) was there beyond the jobs claimed,
   * limits aside: a job a user's limit held back counts, so a lane that frees asks again for it.
   * False: the lane can sleep until a wake-up.
   */
  more: boolean;
}

/** A value of a claim: given (EXPLAIN in bench/batch), or a placeholder a prepared claim fills. */
type Value = number | string | Placeholder;

interface ClaimValues {
  lane: Value;
  perUser: Value;
  global: Value;
  leaseSecs: Value;
  limit: Value;
}

/**
 * The oldest job of `lane` matching `which`, for tool jobs only while its user is under the
 * per-user and global limits, set running under a fresh lease. Exported so bench/batch can
 * EXPLAIN the very statement.
 */
export function claimStatement(db: Db, which: SQL, args: ClaimArgs, limit = 1) {
  return claimUpdate(db, which, { ...args, leaseSecs: args.leaseMs / 1000, limit }, args.lane === "tool");
}

function claimUpdate(db: Db, which: SQL, v: ClaimValues, limited: boolean) {
  const underLimits = limited ? sql`and ${underToolLimits(sql`c.user_id`, v)}` : sql``;
  return db
    .update(job)
    .set({ status: "running", attempts: sql`${job.attempts} + 1`, leaseUntil: sql`now() + make_interval(secs => ${v.leaseSecs})`, startedAt: sql`coalesce(${job.startedAt}, now())` })
    .where(sql`${job.id} = any(array(
      select c.id from job c
      where c.lane = ${v.lane} and ${which} ${underLimits}
      order by c.run_after, c.created_at
      for update of c skip locked
      limit ${v.limit}))`)
    .returning();
}

/**
 * A tool job of `userId` may run under the limits: its user has fewer than `perUser` running
 * (a user with none always may), and the global limit (0: none) allows. The claim and a job
 * inserted claimed (queue/enqueue.ts enqueueAdmitted) ask the same question.
 */
export function underToolLimits(userId: SQL, { perUser, global }: { perUser: Value | SQL; global: Value | SQL }): SQL {
  return sql`${userId} not in (
      select r.user_id from job r where r.lane = 'tool' and r.status = 'running' and r.lease_until >= now()
      group by r.user_id having count(*) >= ${perUser})
    and (${global} = 0 or (select count(*) from job g where g.lane = 'tool' and g.status = 'running' and g.lease_until >= now()) < ${global})`;
}

/**
 * claimStatement as a CTE, read back in one row per claimed job; when none was, one row of nulls
 * if due work was there all the same (held back by the limits or by another claim's locks), no
 * row if nothing was (so the statement's row count still tells an empty claim). Each row carries
 * `more` (the lane's due jobs in the statement's snapshot, where the claimed ones still count,
 * outnumber those claimed) and, with `withInputs` (tool jobs), `inputFiles`: the rows of its
 * input files that the tool run reads (in no particular order; a file gone is absent), so the
 * tool starts without another round trip.
 */
export async function claimJobs(db: Db, which: SQL, args: ClaimArgs, limit: number, withInputs: boolean): Promise<Claim> {
  const values = { lane: args.lane, perUser: args.perUser, global: args.global, leaseSecs: args.leaseMs / 1000, limit, dueLimit: limit + 1 };
  const rows = (await preparedClaim(db, which, args.lane === "tool", withInputs).execute(values)) as (JobRow & { more: boolean })[];
  const jobs = rows.filter((r) => r.id !== null).map(({ more: _, ...row }) => row as unknown as ClaimedJob);
  return { rows: jobs, more: Boolean(rows[0]?.more) };
}

/**
 * The claims of a database, built once each: drizzle built the claim's SQL anew on every claim,
 * 0.4 ms of a worker's main thread (1 ms when its caches were cold), more than the claim's own
 * round trip on PostgreSQL. Keyed by `which` (EXPIRED, QUEUED), tool or not, with inputs or not.
 */
const claims = perDatabase(() => new Map<SQL, Map<string, ReturnType<typeof buildClaim>>>());

function preparedClaim(db: Db, which: SQL, tool: boolean, withInputs: boolean) {
  const byWhich = claims(db);
  let forWhich = byWhich.get(which);
  if (!forWhich) byWhich.set(which, (forWhich = new Map()));
  const key = `${tool}/${withInputs}`;
  let claim = forWhich.get(key);
  if (!claim) forWhich.set(key, (claim = buildClaim(db, which, tool, withInputs)));
  return claim;
}

function buildClaim(db: Db, which: SQL, tool: boolean, withInputs: boolean) {
  const p = sql.placeholder;
  const v = { lane: p("lane"), perUser: p("perUser"), global: p("global"), leaseSecs: p("leaseSecs"), limit: p("limit") };
  const claimed = db.$with("claimed").as(claimUpdate(db, which, v, tool));
  const columns = claimed as unknown as Record<keyof JobRow, SQL.Aliased>;
  const jobColumns = Object.fromEntries(Object.keys(getTableColumns(job)).map((k) => [k, columns[k as keyof JobRow]]));
  const dueCount = (kind: SQL) => sql`(select count(*) from (${dueJobs(v.lane, kind, p("dueLimit"))}) d)`;
  const due = sql`(${dueCount(QUEUED)} + ${dueCount(EXPIRED)})`;
  const fields: Record<string, SQL | SQL.Aliased> = { ...jobColumns, more: sql<boolean>`m.more` };
  if (withInputs) fields.inputFiles = inputFilesOf(columns.inputFileIds);
  return db
    .with(claimed)
    .select(fields)
    .from(sql`(select ${due} > (select count(*) from ${claimed}) as more) as m`)
    .leftJoin(claimed, sql`true`)
    .where(sql`"claimed"."id" is not null or m.more`)
    .prepare("job_claim");
}

/**
 * Up to `limit` due jobs of `lane` matching `which`, read in the claim index's order. Unordered,
 * the planner may read the table from its start, expecting live jobs anywhere; they come after
 * every job that has ended, so with a deep queue it read the whole history to find two
 * (3.6 ms with 11,000 ended jobs).
 */
export function dueJobs(lane: Value | SQL, which: SQL, limit: Value | SQL) {
  return sql`select 1 from ${job} c where c.lane = ${lane} and ${which} order by c.run_after limit ${limit}`;
}

function inputFilesOf(inputFileIds: SQL.Aliased) {
  return inputFilesJson(filesNamedBy(inputFileIds));
}

/**
 * The rows of the files a JSON array of ids names, as `i`, each looked up by its primary key (a
 * file gone is absent). A lateral subquery that cannot be flattened (OFFSET 0) is probed once per
 * id, whatever the table's statistics say: `id = any(array(...))` does not tell the planner how
 * many ids there are (it guesses 10), so on a table of a few hundred files, or one not analysed
 * since it grew, it was planned as a scan of the whole table or of all the owner's files
 * (call-plans.test.ts).
 */
export function filesNamedBy(ids: SQL | SQL.Aliased) {
  return sql`jsonb_array_elements_text(${ids}) as named(id) cross join lateral (select * from ${file} where ${file.id} = named.id offset 0) i`;
}

/** The InputFile rows of `from` (file rows, or a query of their columns, aliased `i`), as one JSON array. */
export function inputFilesJson(from: SQL) {
  return sql<InputFile[]>`(
    select coalesce(json_agg(json_build_object('id', i.id, 'status', i.status, 'filename', i.filename, 'size', i.size, 'mime', i.mime, 'storageKey', i.storage_key)), '[]'::json)
    from ${from})`;
}
