/**
 * Takes jobs from the queue table and runs them, in lanes: tool lanes (one per pool worker) take
 * the tool kind under the per-user and global limits; control lanes the short kinds (workflow
 * transitions, timeouts, sweeps); outbound lanes the calls to other servers. The runner knows
 * kinds, not what they do: a kind's handler runs (registry.ts), or, for a kind with an executor
 * (tool.run: tools/tool-run.ts), the executor takes the claimed job whole. A job is claimed with
 * FOR UPDATE SKIP LOCKED and a lease, so several processes share the queue and a job whose
 * process died is claimed again once its lease ran out. An outcome is recorded only by the claim
 * that still owns the job (settle.ts), in one transaction with its kind's completion hook: a job
 * succeeds at most once and what it causes is queued exactly once.
 */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { job } from "../db/schema";
import type { Logger } from "../log";
import type { ControlJob, ControlOutcome, Failure, JobHandlers, KindExecutor, RetryRequest } from "./registry";
import { backoffMs, LANE_KINDS, type JobKind, type JobRow, type Lane, type RetryPolicy } from "./kinds";
import { retryLater, settle } from "./settle";
import { HeldJobs } from "./held";

export interface RunnerOptions {
  /** A claim lasts this long unless renewed; the runner renews it every third of it while the job runs. */
  leaseMs: number;
  pollMs: number;
  /** Tool jobs this process runs at the same time (one per pool worker); default 0. */
  toolLanes?: number;
  /** Control jobs this process runs at the same time. */
  controlLanes: number;
  /** Outbound jobs (deliveries, e-mail) this process runs at the same time; default 2. */
  outboundLanes?: number;
}

/** The limits the tool lane claims under (tools/admission.ts toolLaneLimits reads them from configuration). */
export type LaneLimits = () => Promise<{ perUser: number; global: number }>;

/** What a claim looks at: first jobs whose process died (lease ran out), then due queued ones. */
const EXPIRED = sql`c.status = 'running' and c.lease_until < now()`;
export const QUEUED = sql`c.status = 'queued' and c.run_after <= now()`;
const EXPIRED_CHECK_MS = 1000;

export class JobRunner {
  private stopped = false;
  /** The idle lanes of each kind, each with what ends its wait. */
  private readonly wakers: Record<Lane, Set<() => void>> = { tool: new Set(), control: new Set(), outbound: new Set() };
  /** Counts wake-ups per lane kind, so a lane can tell one arrived while it was claiming. */
  private readonly pokes: Record<Lane, number> = { tool: 0, control: 0, outbound: 0 };
  private lanes: Promise<void>[] = [];
  private renewer: ReturnType<typeof setInterval> | null = null;
  /** When each lane last looked for jobs whose lease ran out. */
  private readonly expiredCheckedAt = new Map<Lane, number>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly opts: RunnerOptions,
    private readonly handlers: JobHandlers,
    /** Kinds whose claimed jobs are handed over whole (tool.run), instead of calling their handler's run. */
    private readonly executors: Partial<Record<JobKind, KindExecutor>> = {},
    /** Per-user and global concurrency limits of tool jobs, read at each claim. */
    private readonly limits: LaneLimits = async () => ({ perUser: 0, global: 0 }),
    /** Jobs this process is running (shared with the services that cancel them). */
    private readonly held: HeldJobs = new HeldJobs(),
  ) {}

  start(): void {
    for (let i = 0; i < (this.opts.toolLanes ?? 0); i++) this.lanes.push(this.lane("tool"));
    for (let i = 0; i < this.opts.controlLanes; i++) this.lanes.push(this.lane("control"));
    for (let i = 0; i < (this.opts.outboundLanes ?? 2); i++) this.lanes.push(this.lane("outbound"));
    this.renewer = setInterval(() => void this.renew(), Math.max(250, Math.floor(this.opts.leaseMs / 3)));
  }

  /**
   * Extends the leases of the jobs this process runs, so only a dead process loses its jobs, and
   * stops those whose cancel was asked for (from any process) since the last renewal.
   */
  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const rows = await this.db
      .update(job)
      .set({ leaseUntil: new Date(Date.now() + this.opts.leaseMs) })
      .where(and(inArray(job.id, this.held.ids()), eq(job.status, "running")))
      .returning({ id: job.id, cancelRequestedAt: job.cancelRequestedAt })
      .catch((err) => {
        this.log.warn({ err }, "lease renewal failed");
        return [];
      });
    this.held.stop(rows.filter((r) => r.cancelRequestedAt).map((r) => r.id));
  }

  /** Stops jobs this process runs at once (a cancel made here need not wait for the renewal). */
  cancelLocal(ids: string[]): void {
    this.held.stop(ids);
  }

  /**
   * A job of `lane` became claimable (every lane when not said): one idle lane of that kind looks
   * at once instead of at its next poll. Waking one, not all, spares the others a claim that
   * finds nothing; a lane that claims a job wakes the next idle one (wakeNext), so a statement
   * that queued many jobs still has them taken up at once.
   */
  poke(lane?: Lane): void {
    for (const l of lane ? [lane] : LANE_KINDS) {
      this.pokes[l]++;
      this.wakeNext(l);
    }
  }

  private wakeNext(lane: Lane): void {
    const [first] = this.wakers[lane];
    first?.();
  }

  /**
   * Claims no more and waits for the running jobs, up to `graceMs`; then asks those still running
   * to hand themselves back (an executor queues its job again without counting the attempt: the
   * tool run) and waits for that. Leases are renewed until the end, so no other process takes a
   * job that is still finishing here.
   */
  async stop(graceMs = Infinity): Promise<void> {
    this.stopped = true;
    for (const l of LANE_KINDS) for (const wake of [...this.wakers[l]]) wake();
    const lanes = Promise.all(this.lanes);
    if (!(await settlesWithin(lanes, graceMs))) {
      this.log.info({ jobs: this.held.ids() }, "handing running jobs back to the queue");
      this.held.handBackAll();
      await lanes;
    }
    if (this.renewer) clearInterval(this.renewer);
  }

  private async lane(lane: Lane): Promise<void> {
    while (!this.stopped) {
      const pokesBefore = this.pokes[lane];
      const claimed = await this.claim(lane).catch((err) => {
        this.log.error({ err, lane }, "job claim failed");
        return null;
      });
      if (!claimed) {
        // A wake-up that came while the claim was in flight may be for a job it could not see yet.
        if (this.pokes[lane] === pokesBefore && !this.stopped) await this.idle(lane);
        continue;
      }
      this.wakeNext(lane);
      const controller = new AbortController();
      this.held.hold(claimed.id, controller);
      const executor = this.executors[claimed.kind as JobKind];
      try {
        if (executor) await executor.run(claimed, controller.signal);
        else await this.processControl(claimed);
      } catch (err) {
        this.log.error({ err, jobId: claimed.id, kind: claimed.kind }, "job processing failed");
        if (executor) await executor.trouble(claimed, err).catch(() => {});
      } finally {
        this.held.release(claimed.id);
      }
    }
  }

  private idle(lane: Lane): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers[lane].delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.opts.pollMs);
      this.wakers[lane].add(done);
    });
  }

  /**
   * One job of `lane` whose lease expired (its process died: taken back first), else the oldest
   * due queued one, now running under a fresh lease.
   */
  async claim(lane: Lane): Promise<JobRow | null> {
    const limits = lane === "tool" ? await this.limits() : { perUser: 0, global: 0 };
    const args = { lane, ...limits, leaseMs: this.opts.leaseMs };
    // A dead process's jobs are looked for at most once a second per lane while the queue is
    // busy (a lease lasts far longer), and on every claim that finds nothing queued: one
    // statement per claim instead of two on the hot path.
    const due = Date.now() - (this.expiredCheckedAt.get(lane) ?? 0) >= EXPIRED_CHECK_MS;
    if (due) {
      this.expiredCheckedAt.set(lane, Date.now());
      const [expired] = await claimStatement(this.db, EXPIRED, args);
      if (expired) return expired;
    }
    const [queued] = await claimStatement(this.db, QUEUED, args);
    if (queued || due) return queued ?? null;
    const [expired] = await claimStatement(this.db, EXPIRED, args);
    return expired ?? null;
  }

  // ---- kinds run by their handler (control and outbound lanes) ----

  private async processControl(row: JobRow): Promise<void> {
    const handler = this.handlers.control(row.kind);
    const view: ControlJob<JobKind> = { id: row.id, kind: row.kind as JobKind, data: (row.data ?? {}) as never, userId: row.userId, attempts: row.attempts };
    if (!handler) return this.finalFailure(row, view, { code: "INTERNAL", message: `No handler for job kind ${row.kind}` });
    if (row.attempts > handler.retry.attempts) return this.finalFailure(row, view, { code: "GAVE_UP", message: `Gave up after ${handler.retry.attempts} attempts` });
    let outcome: ControlOutcome;
    try {
      outcome = await (handler.run as (job: ControlJob<JobKind>) => Promise<ControlOutcome>)(view);
    } catch (err) {
      // Nobody expected this: logged with its stack.
      const failure = { code: "HANDLER_FAILED", message: err instanceof Error ? err.message : String(err) };
      this.log.warn({ err, jobId: row.id, kind: row.kind, attempt: row.attempts }, "control job failed");
      if (row.attempts < handler.retry.attempts) return retryLater(this.db, row, failure, backoffMs(handler.retry, row.attempts));
      return this.finalFailure(row, view, failure);
    }
    if (outcome) return this.retryRequested(row, view, handler.retry, outcome);
    const onSucceeded = handler.onSucceeded as ((tx: unknown, job: ControlJob<JobKind>) => Promise<void>) | undefined;
    await settle(this.db, row, { status: "succeeded", progress: 100, errorCode: null, errorMessage: null }, async (tx) => onSucceeded?.(tx, view));
  }

  /**
   * The handler said this attempt failed and asked for another (a receiver that answered 503): the
   * same back-off, or final failure after the last attempt, as a throw gets, and one log line
   * with the reason and the handler's fields, no stack.
   */
  private async retryRequested(row: JobRow, view: ControlJob<JobKind>, policy: RetryPolicy, r: RetryRequest): Promise<void> {
    const failure = { code: "HANDLER_FAILED", message: r.retry };
    const fields = { ...r.log, jobId: row.id, kind: row.kind, attempt: row.attempts, maxAttempts: policy.attempts, reason: r.retry };
    if (row.attempts < policy.attempts) {
      const delayMs = backoffMs(policy, row.attempts);
      this.log.info({ ...fields, retryInMs: delayMs }, "job attempt failed, will retry");
      return retryLater(this.db, row, failure, delayMs);
    }
    this.log.warn(fields, "job attempt failed, giving up");
    return this.finalFailure(row, view, failure);
  }

  private async finalFailure(row: JobRow, view: ControlJob<JobKind>, f: Failure): Promise<void> {
    const handler = this.handlers.control(row.kind);
    const onFailed = handler?.onFailed as ((tx: unknown, job: ControlJob<JobKind>, f: Failure) => Promise<void>) | undefined;
    await settle(this.db, row, { status: "failed", errorCode: f.code, errorMessage: f.message }, async (tx) => onFailed?.(tx, view, f));
  }
}

/** Whether `p` settles within `ms` (Infinity: waits for it). */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  if (ms === Infinity) return p.then(() => true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = await Promise.race([p.then(() => true as const), late]);
  clearTimeout(timer);
  return done;
}

/**
 * The claim: the oldest job of `lane` matching `which` (FOR UPDATE SKIP LOCKED, so processes
 * never take the same one), for tool jobs only while its user is under the per-user limit and
 * the global limit (0: none) allows, set running under a fresh lease. Exported so bench/batch
 * can EXPLAIN the very statement.
 */
export function claimStatement(db: Db, which: SQL, args: { lane: Lane; perUser: number; global: number; leaseMs: number }) {
  const { lane, perUser, global, leaseMs } = args;
  const limited =
    lane === "tool"
      ? sql`and c.user_id not in (
          select r.user_id from job r where r.lane = 'tool' and r.status = 'running' and r.lease_until >= now()
          group by r.user_id having count(*) >= ${perUser})
        and (${global} = 0 or (select count(*) from job g where g.lane = 'tool' and g.status = 'running' and g.lease_until >= now()) < ${global})`
      : sql``;
  return db
    .update(job)
    .set({ status: "running", attempts: sql`${job.attempts} + 1`, leaseUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})`, startedAt: sql`coalesce(${job.startedAt}, now())` })
    .where(sql`${job.id} = (
      select c.id from job c
      where c.lane = ${lane} and ${which} ${limited}
      order by c.run_after, c.created_at
      for update of c skip locked
      limit 1)`)
    .returning();
}
