/**
 * Takes jobs from the queue table and runs them, in two lanes: tool lanes (one per pool worker)
 * run `tool.run` jobs on the worker pool under the per-user and global limits; control lanes run
 * the short kinds (workflow transitions, timeouts, sweeps) through their handlers, so a long CAD
 * conversion never delays a transition. A job is claimed with FOR UPDATE SKIP LOCKED and a
 * lease, so several processes share the queue and a job whose process died is claimed again
 * once its lease ran out. An outcome is recorded only by the claim that still owns the job
 * (same attempt number), in one transaction with its kind's completion hook: a job succeeds at
 * most once and what it causes is queued exactly once.
 */
import { candidateFormats } from "@vektor/shared/formats";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { getTool } from "@vektor/wasm-tools";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { file, job } from "../db/schema";
import { newId } from "../lib/ids";
import type { Logger } from "../log";
import type { JobRow } from "./kinds";
import type { ObjectStore } from "../storage/types";
import type { ControlJob, ControlOutcome, Failure, JobHandlers, RetryRequest, ToolOutcome } from "./registry";
import { backoffMs, LANE_KINDS, type JobKind, type Lane, type RetryPolicy } from "./kinds";
import type { WorkerPool } from "../tools/pool";

export interface RunnerOptions {
  timeoutMs: number;
  /** A claim lasts this long unless renewed; the runner renews it every third of it while the job runs. */
  leaseMs: number;
  maxInputBytes: number;
  pollMs: number;
  /** Control jobs this process runs at the same time. */
  controlLanes: number;
  /** Outbound jobs (deliveries, e-mail) this process runs at the same time; default 2. */
  outboundLanes?: number;
}

/** Back-off of a tool job whose outcome could not be recorded. */
const TOOL_RETRY = { attempts: 3, baseDelayMs: 1000, maxDelayMs: 10_000 };

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
  /** Jobs this process is running, each with the controller that stops it. */
  private readonly held = new Map<string, AbortController>();
  private renewer: ReturnType<typeof setInterval> | null = null;
  /** When each lane last looked for jobs whose lease ran out. */
  private readonly expiredCheckedAt = new Map<Lane, number>();

  constructor(
    private readonly db: Db,
    private readonly store: ObjectStore,
    private readonly pool: WorkerPool,
    private readonly log: Logger,
    private readonly opts: RunnerOptions,
    /** Per-user and global concurrency limits of tool jobs, read from configuration at each claim. */
    private readonly limits: () => Promise<{ perUser: number; global: number }>,
    private readonly handlers: JobHandlers,
  ) {}

  start(): void {
    for (let i = 0; i < this.pool.size; i++) this.lanes.push(this.lane("tool"));
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
      .where(and(inArray(job.id, [...this.held.keys()]), eq(job.status, "running")))
      .returning({ id: job.id, cancelRequestedAt: job.cancelRequestedAt })
      .catch((err) => {
        this.log.warn({ err }, "lease renewal failed");
        return [];
      });
    for (const r of rows) if (r.cancelRequestedAt) this.held.get(r.id)?.abort();
  }

  /** Stops jobs this process runs at once (a cancel made here need not wait for the renewal). */
  cancelLocal(ids: string[]): void {
    for (const id of ids) this.held.get(id)?.abort();
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

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.renewer) clearInterval(this.renewer);
    for (const l of LANE_KINDS) for (const wake of [...this.wakers[l]]) wake();
    await Promise.all(this.lanes);
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
      this.held.set(claimed.id, controller);
      try {
        if (lane === "tool") await this.processTool(claimed, controller.signal);
        else await this.processControl(claimed);
      } catch (err) {
        this.log.error({ err, jobId: claimed.id, kind: claimed.kind }, "job processing failed");
        if (lane === "tool") await this.toolTrouble(claimed).catch(() => {});
      } finally {
        this.held.delete(claimed.id);
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

  // ---- control lane ----

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
      if (row.attempts < handler.retry.attempts) return this.retryLater(row, failure, backoffMs(handler.retry, row.attempts));
      return this.finalFailure(row, view, failure);
    }
    if (outcome) return this.retryRequested(row, view, handler.retry, outcome);
    await this.db.transaction(async (tx) => {
      const done = await tx
        .update(job)
        .set({ status: "succeeded", progress: 100, errorCode: null, errorMessage: null, finishedAt: new Date(), leaseUntil: null })
        .where(this.owns(row))
        .returning({ id: job.id });
      if (done.length) await (handler.onSucceeded as ((tx: unknown, job: ControlJob<JobKind>) => Promise<void>) | undefined)?.(tx, view);
    });
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
      return this.retryLater(row, failure, delayMs);
    }
    this.log.warn(fields, "job attempt failed, giving up");
    return this.finalFailure(row, view, failure);
  }

  /** Back in the queue, not before `delayMs` from now: the back-off survives a restart. */
  private async retryLater(row: JobRow, f: Failure, delayMs: number): Promise<void> {
    await this.db
      .update(job)
      .set({ status: "queued", errorCode: f.code, errorMessage: f.message, leaseUntil: null, runAfter: sql`now() + make_interval(secs => ${delayMs / 1000})` })
      .where(this.owns(row));
  }

  private async finalFailure(row: JobRow, view: ControlJob<JobKind>, f: Failure): Promise<void> {
    const handler = this.handlers.control(row.kind);
    await this.db.transaction(async (tx) => {
      const done = await tx
        .update(job)
        .set({ status: "failed", errorCode: f.code, errorMessage: f.message, finishedAt: new Date(), leaseUntil: null })
        .where(this.owns(row))
        .returning({ id: job.id });
      if (done.length) await (handler?.onFailed as ((tx: unknown, job: ControlJob<JobKind>, f: Failure) => Promise<void>) | undefined)?.(tx, view, f);
    });
  }

  /** Still running under this claim: a job taken over by another claim is not ours to settle. */
  private owns(row: JobRow): SQL {
    return and(eq(job.id, row.id), eq(job.status, "running"), eq(job.attempts, row.attempts))!;
  }

  // ---- tool lane ----

  private async processTool(row: JobRow, signal: AbortSignal): Promise<void> {
    const maxAttempts = this.handlers.tool.maxAttempts;
    if (row.attempts > maxAttempts) {
      return this.settleTool(row, { ok: false, error: { code: "WORKER_CRASHED", message: `Gave up after ${maxAttempts} attempts: the process running the job stopped each time` }, cancelled: false });
    }
    if (row.cancelRequestedAt) return this.settleTool(row, cancelledOutcome());
    const inputs = await this.loadInputs(row);
    if ("code" in inputs) return this.settleTool(row, { ok: false, error: inputs, cancelled: false });
    let lastProgress = 0;
    const outcome = await this.pool.run({
      id: `${row.id}:${row.attempts}`,
      slug: row.type,
      inputs,
      params: row.params,
      signal,
      timeoutMs: Math.min(getTool(row.type)?.manifest.limits?.timeoutMs ?? Infinity, this.opts.timeoutMs),
      onProgress: (fraction) => {
        // 100% is written with the outcome; an UPDATE for it alone would be one more statement per job.
        if (fraction >= 1) return;
        const pct = Math.floor(fraction * 100);
        if (pct - lastProgress < 5) return;
        lastProgress = pct;
        void this.db.update(job).set({ progress: pct }).where(and(eq(job.id, row.id), eq(job.status, "running"))).catch(() => {});
      },
    });
    if (!outcome.ok) return this.settleTool(row, outcome.error.code === "CANCELLED" && signal.aborted ? cancelledOutcome() : { ok: false, error: outcome.error, cancelled: false });
    if (outcome.outputs.length === 0) return this.settleTool(row, { ok: false, error: { code: "TOOL_FAILED", message: "The tool produced no output" }, cancelled: false });
    await this.succeed(row, outcome.outputs);
  }

  private async loadInputs(row: JobRow): Promise<ToolInput[] | Failure> {
    const rows = await this.db.select().from(file).where(inArray(file.id, row.inputFileIds));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const limit = Math.min(getTool(row.type)?.manifest.limits?.maxInputBytes ?? Infinity, this.opts.maxInputBytes);
    const inputs: ToolInput[] = [];
    for (const id of row.inputFileIds) {
      const f = byId.get(id);
      if (!f || f.status !== "UPLOADED") return { code: "INPUT_INVALID", message: `Input file ${id} no longer exists` };
      if (f.size > limit) return { code: "INPUT_TOO_LARGE", message: `Input "${f.filename}" is ${f.size} bytes; server-side tools take at most ${limit} bytes` };
      const bytes = await new Response(await this.store.get(f.storageKey)).bytes();
      inputs.push({ name: f.filename, bytes, mime: f.mime });
    }
    return inputs;
  }

  private async succeed(row: JobRow, outputs: ToolOutput[]): Promise<void> {
    const userId = row.userId!;
    const stored: (typeof file.$inferInsert & { storageKey: string; id: string })[] = [];
    let owned = false;
    try {
      for (const out of outputs) {
        const id = newId("f");
        const key = `u/${userId}/${id}`;
        const put = await this.store.put(key, new Response(out.bytes as Uint8Array<ArrayBuffer>).body!);
        const format = candidateFormats(out.mime, out.name)[0]?.id ?? null;
        stored.push({ id, userId, filename: out.name, mime: out.mime, size: put.size, checksum: put.sha256, status: "UPLOADED", format, storageKey: key, jobId: row.id, sourceFileId: row.inputFileIds[0], uploadedAt: new Date() });
      }
      const outputFileIds = stored.map((s) => s.id);
      owned = await this.db.transaction(async (tx) => {
        const done = await tx
          .update(job)
          .set({ status: "succeeded", progress: 100, outputFileIds, finishedAt: new Date(), leaseUntil: null })
          .where(this.owns(row))
          .returning({ id: job.id });
        if (!done.length) return false;
        await tx.insert(file).values(stored);
        await tx.update(file).set({ outFileId: outputFileIds[0] }).where(inArray(file.id, row.inputFileIds));
        await this.handlers.tool.onSettled(tx, row, { ok: true, outputFileIds });
        return true;
      });
    } finally {
      // Not recorded (lost the job to another claim, or a put, the insert or onSettled threw and the
      // transaction rolled back): no file row points at these objects, so nothing else would delete them.
      if (!owned) await Promise.all(stored.map((s) => this.store.delete(s.storageKey)));
    }
  }

  /**
   * Recording a tool job's outcome failed (a database error, a deadlock, a hook that threw): the
   * job goes back in the queue with back-off and runs again, up to the tool's attempts, so a
   * passing fault does not fail a user's job or a workflow step.
   */
  private async toolTrouble(row: JobRow): Promise<void> {
    const max = this.handlers.tool.maxAttempts;
    const failure = { code: "TOOL_FAILED", message: "The server could not finish this job" };
    if (row.attempts < max) return this.retryLater(row, failure, backoffMs(TOOL_RETRY, row.attempts));
    return this.settleTool(row, { ok: false, error: failure, cancelled: false });
  }

  private async settleTool(row: JobRow, outcome: Extract<ToolOutcome, { ok: false }>): Promise<void> {
    await this.db.transaction(async (tx) => {
      const done = await tx
        .update(job)
        .set({ status: outcome.cancelled ? "cancelled" : "failed", errorCode: outcome.error.code, errorMessage: outcome.error.message, finishedAt: new Date(), leaseUntil: null })
        .where(this.owns(row))
        .returning({ id: job.id });
      if (done.length) await this.handlers.tool.onSettled(tx, row, outcome);
    });
  }
}

function cancelledOutcome(): Extract<ToolOutcome, { ok: false }> {
  return { ok: false, error: { code: "CANCELLED", message: "The job was cancelled" }, cancelled: true };
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
