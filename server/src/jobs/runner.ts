/**
 * Takes queued jobs from the database and runs them on the worker pool. A job is claimed with
 * FOR UPDATE SKIP LOCKED and a lease, so several processes share the queue and a job whose
 * process died is claimed again once its lease ran out. Outputs are recorded only if this claim
 * still owns the job (same attempt number): a job succeeds at most once and its outputs are
 * recorded exactly once.
 */
import { candidateFormats } from "@vektor/shared/formats";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { getTool } from "@vektor/wasm-tools";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { file, job } from "../db/schema";
import { newId } from "../lib/ids";
import type { Logger } from "../log";
import type { JobRow } from "../modules/jobs/view";
import type { ObjectStore } from "../storage/types";
import type { WorkerPool } from "./pool";

export interface RunnerOptions {
  timeoutMs: number;
  /** A claim lasts this long unless renewed; the runner renews it every third of it while the job runs. */
  leaseMs: number;
  maxInputBytes: number;
  /** Give up on a job claimed this many times (a job that kills its worker every time). */
  maxAttempts: number;
  pollMs: number;
}

type Failure = { code: string; message: string };

/** What a claim looks at: first jobs whose process died (lease ran out), then queued ones. */
const EXPIRED = sql`c.status = 'running' and c.lease_until < now()`;
export const QUEUED = sql`c.status = 'queued'`;

export class JobRunner {
  private stopped = false;
  private wake: (() => void) | null = null;
  private lanes: Promise<void>[] = [];
  /** Jobs this process is running, with the attempt it claimed (its lease to renew). */
  private readonly held = new Set<string>();
  private renewer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly db: Db,
    private readonly store: ObjectStore,
    private readonly pool: WorkerPool,
    private readonly log: Logger,
    private readonly opts: RunnerOptions,
    /** Per-user and global concurrency limits, read from configuration at each claim. */
    private readonly limits: () => Promise<{ perUser: number; global: number }>,
  ) {}

  start(): void {
    for (let i = 0; i < this.pool.size; i++) this.lanes.push(this.lane());
    this.renewer = setInterval(() => void this.renew(), Math.max(250, Math.floor(this.opts.leaseMs / 3)));
  }

  /** Extend the leases of the jobs this process runs, so only a dead process loses its jobs. */
  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    await this.db
      .update(job)
      .set({ leaseUntil: new Date(Date.now() + this.opts.leaseMs) })
      .where(and(inArray(job.id, [...this.held]), eq(job.status, "running")))
      .catch((err) => this.log.warn({ err }, "lease renewal failed"));
  }

  /** Something was queued: an idle lane looks at once instead of at its next poll. */
  poke(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.renewer) clearInterval(this.renewer);
    this.poke();
    await Promise.all(this.lanes);
  }

  private async lane(): Promise<void> {
    while (!this.stopped) {
      const claimed = await this.claim().catch((err) => {
        this.log.error({ err }, "job claim failed");
        return null;
      });
      if (!claimed) {
        await this.idle();
        continue;
      }
      this.held.add(claimed.id);
      try {
        await this.process(claimed);
      } catch (err) {
        this.log.error({ err, jobId: claimed.id }, "job processing failed");
        await this.fail(claimed, { code: "TOOL_FAILED", message: "The server could not finish this job" }).catch(() => {});
      } finally {
        this.held.delete(claimed.id);
      }
    }
  }

  private idle(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.opts.pollMs);
      const previous = this.wake;
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        previous?.();
        done();
      };
    }).then(() => {
      this.wake = null;
    });
  }

  /**
   * One job whose lease expired (its process died: taken back first), else the oldest queued
   * job, now running under a fresh lease. The per-user and global counts are computed once per
   * claim, not per queued row, so a claim stays cheap however long the queue is.
   */
  async claim(): Promise<JobRow | null> {
    const { perUser, global } = await this.limits();
    return (await this.claimWhere(EXPIRED, perUser, global)) ?? (await this.claimWhere(QUEUED, perUser, global));
  }

  /** Claims one job matching `which` and returns its row: one statement (UPDATE ... RETURNING). */
  private async claimWhere(which: SQL, perUser: number, global: number): Promise<JobRow | null> {
    const [row] = await claimStatement(this.db, which, { perUser, global, leaseMs: this.opts.leaseMs });
    return row ?? null;
  }

  private async process(row: JobRow): Promise<void> {
    if (row.attempts > this.opts.maxAttempts) {
      return this.fail(row, { code: "WORKER_CRASHED", message: `Gave up after ${this.opts.maxAttempts} attempts: the job stopped its worker each time` });
    }
    const inputs = await this.loadInputs(row);
    if ("code" in inputs) return this.fail(row, inputs);
    let lastProgress = 0;
    const outcome = await this.pool.run({
      id: `${row.id}:${row.attempts}`,
      slug: row.type,
      inputs,
      params: row.params,
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
    if (!outcome.ok) return this.fail(row, outcome.error);
    if (outcome.outputs.length === 0) return this.fail(row, { code: "TOOL_FAILED", message: "The tool produced no output" });
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
    const stored: (typeof file.$inferInsert & { storageKey: string })[] = [];
    for (const out of outputs) {
      const id = newId("f");
      const key = `u/${row.userId}/${id}`;
      const put = await this.store.put(key, new Response(out.bytes as Uint8Array<ArrayBuffer>).body!);
      const format = candidateFormats(out.mime, out.name)[0]?.id ?? null;
      stored.push({ id, userId: row.userId, filename: out.name, mime: out.mime, size: put.size, checksum: put.sha256, status: "UPLOADED", format, storageKey: key, jobId: row.id, sourceFileId: row.inputFileIds[0], uploadedAt: new Date() });
    }
    const owned = await this.db.transaction(async (tx) => {
      const done = await tx
        .update(job)
        .set({ status: "succeeded", progress: 100, outputFileIds: stored.map((s) => s.id!), finishedAt: new Date(), leaseUntil: null })
        .where(and(eq(job.id, row.id), eq(job.status, "running"), eq(job.attempts, row.attempts)))
        .returning({ id: job.id });
      if (!done.length) return false;
      await tx.insert(file).values(stored);
      await tx.update(file).set({ outFileId: stored[0].id! }).where(inArray(file.id, row.inputFileIds));
      return true;
    });
    // Lost the job to another claim (lease ran out): its outputs are not ours to keep.
    if (!owned) await Promise.all(stored.map((s) => this.store.delete(s.storageKey)));
  }

  private async fail(row: JobRow, f: Failure): Promise<void> {
    await this.db
      .update(job)
      .set({ status: "failed", errorCode: f.code, errorMessage: f.message, finishedAt: new Date(), leaseUntil: null })
      .where(and(eq(job.id, row.id), eq(job.status, "running"), eq(job.attempts, row.attempts)));
  }
}

/**
 * The claim: the oldest job matching `which` (FOR UPDATE SKIP LOCKED, so processes never take
 * the same one) whose user is under the per-user limit, while the global limit (0: none) allows,
 * set running under a fresh lease. Exported so bench/batch can EXPLAIN the very statement.
 */
export function claimStatement(db: Db, which: SQL, limits: { perUser: number; global: number; leaseMs: number }) {
  const { perUser, global, leaseMs } = limits;
  return db
    .update(job)
    .set({ status: "running", attempts: sql`${job.attempts} + 1`, leaseUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})`, startedAt: sql`coalesce(${job.startedAt}, now())` })
    .where(sql`${job.id} = (
      select c.id from job c
      where ${which}
        and c.user_id not in (
          select r.user_id from job r where r.status = 'running' and r.lease_until >= now()
          group by r.user_id having count(*) >= ${perUser})
        and (${global} = 0 or (select count(*) from job g where g.status = 'running' and g.lease_until >= now()) < ${global})
      order by c.created_at
      for update of c skip locked
      limit 1)`)
    .returning();
}
