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
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { job } from "../db/schema";
import type { Logger } from "../log";
import type { ControlJob, ControlOutcome, Failure, JobHandlers, KindExecutor, RetryRequest } from "./registry";
import { backoffMs, LANE_KINDS, type ClaimedJob, type JobKind, type JobRow, type Lane, type RetryPolicy } from "./kinds";
import { claimJobs, EXPIRED, QUEUED, type Claim } from "./claim";
import { retryLater, settle, waitOutOutage } from "./settle";
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

/** A tool lane held for one job (JobRunner.reserveToolLane): `run` it there, or `release` the lane. */
export interface LaneReservation {
  /** The lease the job is inserted with. */
  leaseMs: number;
  /** The limits the job must be under to be inserted running. */
  limits: LaneLimits;
  run(row: ClaimedJob): void;
  release(): void;
}

/**
 * Whether the claim loop claims again at once after a claim that took `taken` of the `asked` jobs
 * and saw `more` due; else it sleeps until a wake-up, a freed lane or its poll. Again when:
 * - it took all it asked for and more is due;
 * - a wake-up came while the claim was in flight (it may be for a job the claim could not see yet);
 * - the claim left due work it could not take (a user's or the global limit) and a lane of the
 *   kind freed meanwhile: that job's end was not in the claim's snapshot and may have freed the
 *   limit, and the lane could not ask again itself, as nothing was held back yet when it freed.
 *   Missed, the waiting job waited for the next poll (on PostgreSQL, where a claim and a job's end
 *   run on two connections at once; seen in CI as a 30 s stall under a 60 s poll).
 */
export function claimsAgain(claim: { more: boolean; taken: number; asked: number }, meanwhile: { poked: boolean; freed: boolean }): boolean {
  if (claim.more && claim.taken === claim.asked) return true;
  return meanwhile.poked || (claim.more && claim.taken < claim.asked && meanwhile.freed);
}

/** How often each kind of lane looks for jobs whose process died (a lease lasts far longer). */
const EXPIRED_CHECK_MS = 1000;
/** An idle kind of lane polls after pollMs, then twice as long after each poll that found nothing, up to this many pollMs. */
const IDLE_BACKOFF_STEPS = 8;

/**
 * The lanes of one kind in this process: how many there are and run a job, and the state of the
 * one loop that claims for all of them (dispatch). `wanted` says claimable work may be there:
 * set by a wake-up, a claim that took all it asked for and saw more, a poll, and a lane freeing
 * while work was held back; cleared by a claim that leaves nothing claimable.
 */
interface LaneSet {
  lane: Lane;
  size: number;
  busy: number;
  wanted: boolean;
  /** The last claim saw due work it could not take (a user's or the global limit, another process's lock): a lane freeing asks again. */
  heldBack: boolean;
  /** Wake-ups so far, so the loop can tell one arrived while it was claiming. */
  pokes: number;
  /** Lanes freed so far, so the loop can tell a job ended while a claim it held back was under way. */
  frees: number;
  /** Ends the loop's wait (a wake-up, a lane freed, stop). */
  wake: (() => void) | null;
  /** The current idle wait: pollMs after work was found or a wake-up, doubled by each empty poll. */
  idleMs: number;
  /** When the loop polls next while it waits for work. */
  pollAt: number;
  /** The claim under way is a poll (its timer ran out), not a wake-up's. */
  polled: boolean;
  /** When the lanes last looked for jobs whose lease ran out. */
  expiredCheckedAt: number;
}

export class JobRunner {
  private stopped = false;
  private readonly sets: Record<Lane, LaneSet>;
  private loops: Promise<void>[] = [];
  /** The jobs this process is running, each until its outcome is recorded. */
  private readonly running = new Set<Promise<void>>();
  private renewer: ReturnType<typeof setInterval> | null = null;
  /** Claims made per kind of lane, each one statement or two (tests count them: a wake-up for one kind must not make the others claim). */
  readonly claims: Record<Lane, number> = { tool: 0, control: 0, outbound: 0 };

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
  ) {
    const size: Record<Lane, number> = { tool: opts.toolLanes ?? 0, control: opts.controlLanes, outbound: opts.outboundLanes ?? 2 };
    const set = (lane: Lane): LaneSet => ({ lane, size: size[lane], busy: 0, wanted: true, heldBack: false, pokes: 0, frees: 0, wake: null, idleMs: opts.pollMs, pollAt: 0, polled: false, expiredCheckedAt: 0 });
    this.sets = { tool: set("tool"), control: set("control"), outbound: set("outbound") };
  }

  start(): void {
    for (const l of LANE_KINDS) if (this.sets[l].size > 0) this.loops.push(this.dispatch(this.sets[l]));
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
   * A job of `lane` became claimable (every kind when not said): that kind's loop claims at once,
   * for as many of its lanes as are free, in one statement, instead of at its next poll. Other
   * kinds do not stir, and a kind whose lanes are all busy only notes it, claiming when one frees.
   */
  poke(lane?: Lane): void {
    for (const l of lane ? [lane] : LANE_KINDS) {
      const set = this.sets[l];
      set.pokes++;
      set.wanted = true;
      set.wake?.();
    }
  }

  /**
   * Claims no more and waits for the running jobs, up to `graceMs`; then asks those still running
   * to hand themselves back (an executor queues its job again without counting the attempt: the
   * tool run) and waits for that. Leases are renewed until the end, so no other process takes a
   * job that is still finishing here.
   */
  async stop(graceMs = Infinity): Promise<void> {
    this.stopped = true;
    for (const l of LANE_KINDS) this.sets[l].wake?.();
    await Promise.all(this.loops);
    const jobs = Promise.all(this.running);
    if (!(await settlesWithin(jobs, graceMs))) {
      this.log.info({ jobs: this.held.ids() }, "handing running jobs back to the queue");
      this.held.handBackAll();
      await jobs;
    }
    if (this.renewer) clearInterval(this.renewer);
  }

  /**
   * The one loop that claims for the lanes of a kind: while some are free and work may be there,
   * one statement claims up to as many jobs as lanes are free; a claim that comes back short
   * means nothing more is there for now, so the loop sleeps until a wake-up, a freed lane (tool
   * lanes: a user's limit may have freed too) or its poll, which backs off while polls find
   * nothing. Several processes' lanes thus claim when work arrives, not in turn all the time.
   */
  private async dispatch(set: LaneSet): Promise<void> {
    while (!this.stopped) {
      const free = set.size - set.busy;
      if (free === 0 || !set.wanted) {
        await this.sleep(set, free === 0 ? Infinity : set.pollAt - Date.now());
        continue;
      }
      const pokesBefore = set.pokes;
      const freesBefore = set.frees;
      const polled = set.polled;
      set.polled = false;
      // Tool jobs one at a time: the limits are read when a statement starts, so a batch could pass them.
      const asked = set.lane === "tool" ? 1 : free;
      const claim = await this.claimUpTo(set.lane, asked).catch((err) => {
        this.log.error({ err, lane: set.lane }, "job claim failed");
        return null;
      });
      const taken = claim?.rows.length ?? 0;
      for (const row of claim?.rows ?? []) this.launch(set, row);
      const more = Boolean(claim?.more);
      set.heldBack = more && taken < asked;
      if (claimsAgain({ more, taken, asked }, { poked: set.pokes !== pokesBefore, freed: set.frees !== freesBefore })) continue;
      set.wanted = false;
      await this.planPoll(set, polled && taken === 0);
    }
  }

  /**
   * When an idle kind polls next: pollMs after it found work or was woken, twice as long after
   * each poll that found nothing (up to IDLE_BACKOFF_STEPS x pollMs), but never past the moment
   * a delayed job of its kind becomes due.
   */
  private async planPoll(set: LaneSet, emptyPoll: boolean): Promise<void> {
    set.idleMs = emptyPoll ? Math.min(set.idleMs * 2, this.opts.pollMs * IDLE_BACKOFF_STEPS) : this.opts.pollMs;
    let wait = set.idleMs;
    if (wait > this.opts.pollMs) {
      const dueInMs = await nextDueInMs(this.db, set.lane).catch(() => null);
      if (dueInMs !== null) wait = Math.min(wait, Math.max(dueInMs, 0));
    }
    set.pollAt = Date.now() + wait;
  }

  /** Waits `ms` (then it polls: work may be there) or until woken: at once when work is wanted and a lane is free. */
  private sleep(set: LaneSet, ms: number): Promise<void> {
    if (this.stopped || (set.wanted && set.busy < set.size)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        set.wake = null;
        resolve();
      };
      const poll = () => {
        set.wanted = true;
        set.polled = true;
        done();
      };
      const timer = ms === Infinity ? undefined : setTimeout(poll, Math.max(0, ms));
      set.wake = done;
    });
  }

  /**
   * A free tool lane of this process, held for a job its creator inserts already claimed
   * (enqueueAdmitted), so the job starts without a wake-up and a claim; null when none is free,
   * when this process is stopping, or when the lanes are about to claim (work may be waiting,
   * and it came first). The holder gives the lane its job, or gives the lane back.
   */
  reserveToolLane(): LaneReservation | null {
    const set = this.sets.tool;
    if (this.stopped || set.wanted || set.busy >= set.size) return null;
    set.busy++;
    let used = false;
    const once = () => {
      if (used) throw new Error("A lane reservation is used once");
      used = true;
    };
    return {
      leaseMs: this.opts.leaseMs,
      limits: this.limits,
      run: (row) => {
        once();
        if (!this.stopped) return this.runIn(set, row);
        // Stopping since the lane was held: the job waits in the queue for another process, its attempt not counted.
        const handBack = waitOutOutage(this.db, row, { code: "SHUTTING_DOWN", message: "Handed back to the queue: the server stopped before it started" }, 0)
          .catch((err) => this.log.warn({ err, jobId: row.id }, "handing a job back failed; its lease will run out"))
          .finally(() => this.free(set));
        this.running.add(handBack);
      },
      release: () => {
        once();
        this.free(set);
      },
    };
  }

  /** Runs a claimed job in one of the set's lanes; the lane frees when its outcome is recorded. */
  private launch(set: LaneSet, row: JobRow): void {
    set.busy++;
    this.runIn(set, row);
  }

  /** Runs a job in a lane already counted busy. */
  private runIn(set: LaneSet, row: JobRow): void {
    const run = this.execute(row).finally(() => {
      this.running.delete(run);
      this.free(set);
    });
    this.running.add(run);
  }

  private free(set: LaneSet): void {
    set.busy--;
    set.frees++;
    // A job's end may free its user's or the global limit for a job the last claim had to leave.
    if (set.heldBack) set.wanted = true;
    set.wake?.();
  }

  private async execute(claimed: JobRow): Promise<void> {
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

  /** One job of `lane` (see claimUpTo), or null. */
  async claim(lane: Lane): Promise<ClaimedJob | null> {
    const { rows } = await this.claimUpTo(lane, 1);
    return rows[0] ?? null;
  }

  /**
   * Up to `max` jobs of `lane`, now running under a fresh lease: first those whose lease expired
   * (their process died), looked for at most once a second per kind, then the oldest due queued
   * ones. One statement per claim on the hot path.
   */
  private async claimUpTo(lane: Lane, max: number): Promise<Claim> {
    this.claims[lane]++;
    const limits = lane === "tool" ? await this.limits() : { perUser: 0, global: 0 };
    const args = { lane, ...limits, leaseMs: this.opts.leaseMs };
    const set = this.sets[lane];
    // A tool job comes with its input files' rows, so the tool starts without another round trip.
    const withInputs = lane === "tool";
    let expired: Claim | null = null;
    if (Date.now() - set.expiredCheckedAt >= EXPIRED_CHECK_MS) {
      set.expiredCheckedAt = Date.now();
      expired = await claimJobs(this.db, EXPIRED, args, max, withInputs);
      if (expired.rows.length === max) return expired;
    }
    const queued = await claimJobs(this.db, QUEUED, args, max - (expired?.rows.length ?? 0), withInputs);
    return { rows: [...(expired?.rows ?? []), ...queued.rows], more: queued.more };
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

/** In how many ms the next delayed queued job of `lane` becomes due; null when none waits. */
async function nextDueInMs(db: Db, lane: Lane): Promise<number | null> {
  const [row] = await db
    .select({ ms: sql<number | null>`extract(epoch from min(${job.runAfter}) - now()) * 1000` })
    .from(job)
    // The status as a literal: the claim index holds live jobs only, and a parameter would not say this is one.
    .where(and(eq(job.lane, lane), sql`${job.status} = 'queued'`, sql`${job.runAfter} > now()`));
  return row?.ms == null ? null : Number(row.ms);
}
