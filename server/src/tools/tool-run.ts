/**
 * The tool.run kind's executor: the runner claims a tool job in a tool lane and hands it here.
 * It reads the inputs, runs the tool on the worker pool (abortable by a cancel, with progress),
 * stores the outputs and records them with the job's success in one transaction with the kind's
 * onSettled hook (a workflow step's successors start there). Objects written for an outcome that
 * could not be recorded are deleted, so nothing is orphaned. A tool call may bring the run begun
 * while its row was inserted (startEarly, early-run.ts): the job then takes that run's outcome.
 */
import { tmpdir } from "node:os";
import { candidateFormats } from "@vektor/shared/formats";
import { sizeProblem } from "@vektor/shared/tools/limits";
import type { ToolInput } from "@vektor/shared/tools/manifest";
import { getTool } from "@vektor/wasm-tools";
import { inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { file } from "../db/schema";
import { newId } from "../lib/ids";
import { backoffMs, type ClaimedJob, type InputFile, type JobRow } from "../queue/kinds";
import type { Failure, KindExecutor, ToolOutcome, ToolRunHandler } from "../queue/registry";
import { reportProgress, retryLater, settle, settleAtOnce, toolEnding, waitOutOutage } from "../queue/settle";
import { recordOutputs, recordSuccess, type StoredFile } from "./record-success";
import { storeUnavailable } from "../http/errors";
import type { ObjectStore } from "../storage/types";
import type { WorkerPool } from "./pool";
import type { PooledOutput, RunOutcome } from "./pool-protocol";
import { removeStaged } from "./staged-outputs";
import { bytesBody, JobFiles, streamToFile } from "./job-files";
import { handedBack } from "../queue/held";
import type { JobEnds } from "../queue/ends";
import type { JobTrace } from "../lib/job-trace";
import { EarlyRun, InputHints } from "./early-run";

export interface ToolRunOptions {
  /** Longest run of one tool (a tool's own manifest limit can only be lower). */
  timeoutMs: number;
  /** Largest input file a server-side tool reads. */
  maxInputBytes: number;
  /** Where the job folders of tools that read and write host files go (io.hostFiles; default: the system's temp folder). */
  scratchDir?: string;
  /** Where a recorded end is handed to the requests of this process that wait for it. */
  ends?: JobEnds;
  /** JOB_TRACE=1: the job's steps are timed. */
  trace?: JobTrace | null;
  /** Inputs this large in all, or larger, go to an io.hostFiles tool as host files; smaller ones as bytes (default HOST_FILES_FROM). */
  hostFilesFrom?: number;
}

/**
 * Below this many input bytes in all, an io.hostFiles tool gets bytes: staging a small file on
 * disk, mounting it and reading it back costs more than the copy it saves (most calls are small),
 * while the memory a copy costs matters only for big files.
 */
export const HOST_FILES_FROM = 8 * 1024 * 1024;

/**
 * Inputs of a run begun before its job row (EarlyRun) are at most this many bytes in all: they
 * are read at once on this thread, and fixed costs weigh on small calls only. A claimed job's
 * input this small is read at once too: a stat and a read on the thread pool, two hand-offs
 * each, cost more than such a read.
 */
export const EARLY_MAX_BYTES = 1024 * 1024;

/** Back-off of a tool job whose outcome could not be recorded. */
const TOOL_RETRY = { attempts: 3, baseDelayMs: 1000, maxDelayMs: 10_000 };

/** How often a job retries while the object store is away (with jitter; the attempt is not counted). */
const STORE_WAIT = { attempts: 1, baseDelayMs: 2000, maxDelayMs: 2000 };

/**
 * Progress is written at most this often, the first time this long after the run began: most runs
 * end sooner, and their end answers the request that waits for them, while each write is a
 * statement on the database's thread (PGlite's is this process's own) ahead of the outcome's.
 */
const PROGRESS_EVERY_MS = 500;

/** Output objects written at once (a split's pages): the store's latency overlaps, a remote store is not flooded. */
const PARALLEL_PUTS = 8;

type Failed = Extract<ToolOutcome, { ok: false }>;

export class ToolRun implements KindExecutor {
  /** The rows of files this process saw lately: what lets a call's run start before its job row. */
  readonly hints = new InputHints();
  private earlyRuns = 0;

  constructor(
    private readonly db: Db,
    private readonly store: ObjectStore,
    private readonly pool: WorkerPool,
    /** The kind's registered hook: its attempts and what is done where an outcome is recorded. */
    private readonly hook: ToolRunHandler,
    private readonly opts: ToolRunOptions,
  ) {}

  /** Runs the job; a tool that reads and writes host files gets a job folder for it, removed at the end. */
  async run(row: ClaimedJob, signal: AbortSignal): Promise<void> {
    if (row.inputFiles && row.userId) this.hints.learn(row.userId, row.inputFiles);
    const total = row.inputFiles?.reduce((sum, f) => sum + f.size, 0) ?? Infinity;
    const files = !row.early && this.onHostFiles(row.type, total) ? await JobFiles.create(this.opts.scratchDir ?? tmpdir(), row.id) : null;
    try {
      await this.runWith(row, signal, files);
    } finally {
      await files?.remove();
    }
  }

  /** Whether the tool reads and writes host files, and inputs of `total` bytes are big enough for that to pay (unknown, Infinity: they are). */
  private onHostFiles(slug: string, total: number): boolean {
    if (!getTool(slug)?.manifest.io.hostFiles) return false;
    return total >= (this.opts.hostFilesFrom ?? HOST_FILES_FROM);
  }

  /** The longest run of `slug`: its manifest's limit within the server's. */
  private timeoutOf(slug: string): number {
    return Math.min(getTool(slug)?.manifest.limits?.timeoutMs ?? Infinity, this.opts.timeoutMs);
  }

  /**
   * Starts `slug` on `userId`'s files `fileIds` before their job's row is written (EarlyRun), when
   * this process knows their rows and they are small, on this host's disk (read at once here) and
   * go to the tool as bytes. Null when that does not apply: nothing was started.
   */
  startEarly(userId: string, slug: string, params: unknown, fileIds: readonly string[]): EarlyRun | null {
    const hints = this.hints.of(userId, fileIds);
    if (!hints || !this.store.readSync) return null;
    const total = hints.reduce((sum, h) => sum + h.size, 0);
    if (total > EARLY_MAX_BYTES || this.onHostFiles(slug, total)) return null;
    const inputs: ToolInput[] = [];
    for (const h of hints) {
      const bytes = this.store.readSync(h.storageKey, h.size);
      if (!bytes) return null;
      inputs.push({ name: h.filename, mime: h.mime, bytes });
    }
    const id = `early:${++this.earlyRuns}`;
    const start = (signal: AbortSignal, onProgress: (fraction: number) => void) => this.pool.run({ id, slug, inputs, params, signal, onProgress, staging: this.staging(), timeoutMs: this.timeoutOf(slug) });
    return new EarlyRun(hints, start, (outcome) => outcome.ok && removeStaged(outcome.outputs));
  }

  /** Where the workers write the outputs they hold as bytes: the store's staging folder, when it takes files from there. */
  private staging(): string | undefined {
    return this.store.placeStaged ? this.store.stagingDir : undefined;
  }

  private async runWith(row: ClaimedJob, signal: AbortSignal, files: JobFiles | null): Promise<void> {
    const trace = this.opts.trace;
    trace?.mark(row.id, "claim");
    const problem = this.startProblem(row);
    if (problem) {
      row.early?.drop();
      return this.fail(row, problem);
    }
    const onProgress = this.progressWriter(row);
    let outcome: RunOutcome;
    if (row.early) {
      trace?.mark(row.id, "inputs");
      outcome = await row.early.adopt(signal, onProgress);
    } else {
      const inputs = await this.loadInputs(row, files);
      if ("code" in inputs) return this.fail(row, { ok: false, error: inputs, cancelled: false });
      trace?.mark(row.id, "inputs");
      outcome = await this.pool.run({ id: `${row.id}:${row.attempts}`, slug: row.type, inputs, params: row.params, outputDir: files?.outputDir, staging: this.staging(), signal, timeoutMs: this.timeoutOf(row.type), onProgress });
    }
    if (trace) markToolRun(trace, row.id, outcome, row.early?.arrivedAt);
    // The process stops (graceful shutdown past its grace): the job waits in the queue for another
    // process, the attempt not counted and nothing recorded, so it runs (and is charged) once.
    if (!outcome.ok && handedBack(signal)) return waitOutOutage(this.db, row, { code: "SHUTTING_DOWN", message: "Handed back to the queue: the server running it stopped" }, 0);
    if (!outcome.ok) return this.fail(row, outcome.error.code === "CANCELLED" && signal.aborted ? cancelledOutcome() : { ok: false, error: outcome.error, cancelled: false });
    if (outcome.outputs.length === 0) return this.fail(row, { ok: false, error: { code: "TOOL_FAILED", message: "The tool produced no output" }, cancelled: false });
    await this.succeed(row, outcome.outputs, files);
  }

  /** Writes the job's progress as its tool reports it: every 5 points at most, at most every PROGRESS_EVERY_MS. */
  private progressWriter(row: JobRow): (fraction: number) => void {
    let lastProgress = 0;
    let lastWrite = performance.now();
    return (fraction) => {
      // 100% is written with the outcome; an UPDATE for it alone would be one more statement per job.
      if (fraction >= 1) return;
      const pct = Math.floor(fraction * 100);
      if (pct - lastProgress < 5 || performance.now() - lastWrite < PROGRESS_EVERY_MS) return;
      lastProgress = pct;
      lastWrite = performance.now();
      reportProgress(this.db, row, pct);
    };
  }

  /** Why the job must not run (too many attempts, a cancel already asked for, an input too large here), or null. */
  private startProblem(row: ClaimedJob): Failed | null {
    const maxAttempts = this.hook.maxAttempts;
    if (row.attempts > maxAttempts) return { ok: false, error: { code: "WORKER_CRASHED", message: `Gave up after ${maxAttempts} attempts: the process running the job stopped each time` }, cancelled: false };
    if (row.cancelRequestedAt) return cancelledOutcome();
    const tooLarge = row.early?.inputs.map((f) => this.sizeProblemOf(row, f)).find(Boolean);
    return tooLarge ? { ok: false, error: { code: "INPUT_TOO_LARGE", message: tooLarge }, cancelled: false } : null;
  }

  /** An input too large for the job's tool here: checked when the job was created, and again here, as TOOL_MAX_INPUT_MB may be lower in this process. */
  private sizeProblemOf(row: JobRow, f: Pick<InputFile, "filename" | "size">): string | null {
    const limit = Math.min(getTool(row.type)?.manifest.limits?.maxInputBytes ?? Infinity, this.opts.maxInputBytes);
    return sizeProblem(row.type, { name: f.filename, size: f.size }, limit, "on this server");
  }

  /**
   * Recording the outcome failed (a database error, a deadlock, a hook that threw): the job goes
   * back in the queue with back-off and runs again, up to the kind's attempts, so a passing fault
   * does not fail a user's job or a workflow step.
   */
  async trouble(row: JobRow, err: unknown): Promise<void> {
    // The store is away (an S3 outage): the job waits for it instead of failing the user's item.
    if (storeUnavailable(err)) return waitOutOutage(this.db, row, { code: "STORAGE_UNAVAILABLE", message: "Waiting for the object store to come back" }, backoffMs(STORE_WAIT, 1));
    const failure = { code: "TOOL_FAILED", message: "The server could not finish this job" };
    if (row.attempts < this.hook.maxAttempts) return retryLater(this.db, row, failure, backoffMs(TOOL_RETRY, row.attempts));
    return this.fail(row, { ok: false, error: failure, cancelled: false });
  }

  /** The inputs as bytes, or staged in the job's folder (streamed, never whole in memory) when it has one. */
  private async loadInputs(row: ClaimedJob, files: JobFiles | null): Promise<ToolInput[] | Failure> {
    // The runner's claim brings the input rows along; read them here only when it did not.
    const rows = row.inputFiles ?? (await this.db.select().from(file).where(inArray(file.id, row.inputFileIds)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const inputs: ToolInput[] = [];
    for (const id of row.inputFileIds) {
      const f = byId.get(id);
      if (!f || f.status !== "UPLOADED") return { code: "INPUT_INVALID", message: `Input file ${id} no longer exists` };
      const tooLarge = this.sizeProblemOf(row, f);
      if (tooLarge) return { code: "INPUT_TOO_LARGE", message: tooLarge };
      const meta = { name: f.filename, mime: f.mime, size: f.size };
      inputs.push(files ? await files.stage(meta, (dest) => this.copyObject(f.storageKey, dest)) : { ...meta, size: undefined, bytes: await this.readObject(f.storageKey, f.size) });
    }
    return inputs;
  }

  /**
   * An object of `size` bytes (its row's): at once on this thread when it is small and on this
   * host's disk, as an early run reads; else in one go where the store gives a file (a small
   * input, since big ones go to host-file tools).
   */
  private async readObject(key: string, size: number): Promise<Uint8Array> {
    const now = size <= EARLY_MAX_BYTES ? this.store.readSync?.(key, size) : null;
    if (now) return now;
    if (this.store.getBlob) return (await this.store.getBlob(key)).bytes();
    return new Response(await this.store.get(key)).bytes();
  }

  /** An object copied into a job's folder: by the kernel where the store is this host's disk, else streamed. */
  private async copyObject(key: string, dest: string): Promise<void> {
    if (this.store.copyToFile) return this.store.copyToFile(key, dest);
    await streamToFile(await this.store.get(key), dest);
  }

  private async succeed(row: JobRow, outputs: PooledOutput[], files: JobFiles | null): Promise<void> {
    const written: StoredFile[] = [];
    let ended: JobRow | null = null;
    let stored: StoredFile[] = [];
    try {
      stored = await this.storeOutputs(row, outputs, written, files);
      this.opts.trace?.mark(row.id, "outputs");
      const outputFileIds = stored.map((s) => s.id);
      const ending = toolEnding({ ok: true, outputFileIds });
      ended = this.writesOnSettled(row)
        ? await settle(this.db, row, ending, async (tx) => {
            await recordOutputs(tx, row, stored);
            await this.hook.onSettled(tx, row, { ok: true, outputFileIds });
          })
        : await recordSuccess(this.db, row, stored);
    } finally {
      // Not recorded (lost the job to another claim, or a put, the insert or onSettled threw and the
      // transaction rolled back): no file row points at these objects, so nothing else would delete them.
      if (!ended) {
        removeStaged(outputs);
        await Promise.all(written.map((s) => this.store.delete(s.storageKey)));
      }
    }
    this.handEnd(ended, stored);
  }

  /**
   * Writes the outputs' objects, PARALLEL_PUTS at a time, and answers them in the tool's order.
   * Each object written is added to `written` as it lands; a failure is thrown once every put in
   * flight has ended, so `written` then lists every object there is to delete.
   */
  private async storeOutputs(row: JobRow, outputs: PooledOutput[], written: StoredFile[], files: JobFiles | null): Promise<StoredFile[]> {
    const stored: StoredFile[] = new Array(outputs.length);
    let next = 0;
    let failure: { err: unknown } | null = null;
    const lane = async () => {
      while (!failure && next < outputs.length) {
        const i = next++;
        try {
          written.push((stored[i] = await this.storeOutput(row, outputs[i], files)));
        } catch (err) {
          failure ??= { err };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_PUTS, outputs.length) }, lane));
    if (failure) throw (failure as { err: unknown }).err;
    return stored;
  }

  /** One output's object, streamed from its file in the job's folder when it is there. */
  private async storeOutput(row: JobRow, out: PooledOutput, files: JobFiles | null): Promise<StoredFile> {
    const userId = row.userId!;
    const id = newId("f");
    const key = `u/${userId}/${id}`;
    const put = await this.storeObject(key, out, files);
    const format = candidateFormats(out.mime, out.name)[0]?.id ?? null;
    return { id, userId, filename: out.name, mime: out.mime, size: put.size, checksum: put.sha256, status: "UPLOADED", format, storageKey: key, jobId: row.id, sourceFileId: row.inputFileIds[0], uploadedAt: new Date() };
  }

  /**
   * An output's object: the file its worker staged, or its file in the job's folder, taken whole
   * where the store can (moved, not copied), else streamed; its bytes in one write where the store can.
   */
  private async storeObject(key: string, out: PooledOutput, files: JobFiles | null): Promise<{ size: number; sha256: string }> {
    if (out.staged && this.store.placeStaged) {
      this.store.placeStaged(key, out.staged.path);
      return { size: out.staged.size, sha256: out.staged.sha256 };
    }
    if (out.path && files && this.store.putFile) return this.store.putFile(key, files.outputPath(out.path));
    if (!out.path && this.store.putBytes) return this.store.putBytes(key, out.bytes);
    return this.store.put(key, files ? files.body(out) : bytesBody(out));
  }

  private async fail(row: JobRow, outcome: Failed): Promise<void> {
    const ending = toolEnding(outcome);
    const ended = this.writesOnSettled(row) ? await settle(this.db, row, ending, (tx) => this.hook.onSettled(tx, row, outcome)) : await settleAtOnce(this.db, row, ending);
    this.handEnd(ended, []);
  }

  /** Whether the kind's hook writes for this job, so its outcome needs a transaction around them (unsaid: it may). */
  private writesOnSettled(row: JobRow): boolean {
    return this.hook.writesOnSettled?.(row) ?? true;
  }

  /** A committed end goes to this process's waiting requests (none when this claim did not own the job). */
  private handEnd(ended: JobRow | null, outputs: StoredFile[]): void {
    if (!ended) return;
    this.opts.trace?.mark(ended.id, "commit");
    if (ended.userId) this.hints.learn(ended.userId, outputs);
    this.opts.ends?.ended({ row: ended, outputs });
  }
}

function cancelledOutcome(): Failed {
  return { ok: false, error: { code: "CANCELLED", message: "The job was cancelled" }, cancelled: true };
}

/**
 * The tool's own run as its worker timed it, and the hops to and from the worker before it. The
 * worker's timing, not the pool's messages: a main thread that wakes late takes the "started" and
 * the result in one go, which made the tool's run look like 0 and the hop like all of it. `at`:
 * when the answer arrived (an early run's may have come before its job was even inserted).
 */
function markToolRun(trace: JobTrace, jobId: string, outcome: RunOutcome, at = performance.now()): void {
  trace.mark(jobId, "transfer", at - (outcome.ok ? (outcome.ranMs ?? 0) : 0));
  trace.mark(jobId, "tool", at);
}
