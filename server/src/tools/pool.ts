/**
 * A pool of disposable tool workers (Bun Workers, WASM loaded once per worker and reused).
 * One run per worker at a time; a run past its timeout, or a worker that crashed or ran out
 * of memory, ends with a typed error and the worker is replaced, so the server keeps serving.
 * A run's timeout counts from the moment its worker says the tool started (engine loaded);
 * loading the engine has its own, longer guard, so a worker that hangs there is replaced too.
 * A worker is ended between two of its host-file calls, and the files it held open are closed
 * (its file ledger: wasm-tools runtime/file-ledger.ts); terminating a worker closes none.
 */
import type { ToolInput } from "@vektor/shared/tools/manifest";
import { CALL_LIMIT_MS, newFileLedger, stopAndDrain } from "@vektor/wasm-tools/runtime/file-ledger";
import { closeSync } from "node:fs";
import { formatDuration } from "../lib/duration";
import type { Logger } from "../log";
import type { PoolReply, RunOutcome } from "./pool-protocol";

interface Task {
  id: string;
  slug: string;
  inputs: ToolInput[];
  params: unknown;
  /** A host folder an io.hostFiles tool writes its outputs into (inputs then come as host files too). */
  outputDir?: string;
  /** A folder where the worker writes the outputs it holds as bytes (PoolRequest); without it, they come back as bytes. */
  staging?: string;
  timeoutMs: number;
  onProgress?: (fraction: number) => void;
  /** The worker has the inputs and the tool's engine loaded: the tool's own run begins. */
  onStarted?: () => void;
  signal?: AbortSignal;
  resolve: (outcome: RunOutcome) => void;
}

interface Slot {
  worker: Worker;
  /** Where the worker counts its host-file calls and records the files it holds open. */
  ledger: Int32Array;
  ready: Promise<void>;
  task: Task | null;
  timer: ReturnType<typeof setTimeout> | null;
}

/** Codes after which a worker is not trusted again (its WASM heap may be poisoned). */
const REPLACE_AFTER = new Set(["TOOL_FAILED", "TIMEOUT", "WORKER_CRASHED", "CANCELLED"]);
const WORKER_URL = new URL("./tool-worker.ts", import.meta.url).href;

export interface PoolOptions {
  /** The worker script; tests pass one that crashes or starts slowly on purpose. */
  workerUrl?: string;
  /** Longest wait for a worker to load a tool and its engine before the run starts. */
  startupTimeoutMs?: number;
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Task[] = [];
  /** Workers being ended (endWorker), until their files are closed. */
  private readonly ending = new Set<Promise<void>>();
  private closed = false;
  private readonly workerUrl: string;
  private readonly startupTimeoutMs: number;

  constructor(
    readonly size: number,
    private readonly log: Logger,
    opts: PoolOptions = {},
  ) {
    this.workerUrl = opts.workerUrl ?? WORKER_URL;
    this.startupTimeoutMs = opts.startupTimeoutMs ?? 120_000;
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** Run one tool; never rejects: failures come back as `{ ok: false, error }`. */
  run(task: Omit<Task, "resolve">): Promise<RunOutcome> {
    if (this.closed) return Promise.resolve({ ok: false, error: { code: "WORKER_CRASHED", message: "The worker pool is shut down" } });
    return new Promise((resolve) => {
      this.waiting.push({ ...task, resolve });
      this.dispatch();
    });
  }

  /** Runs in flight and queued. */
  get busy(): number {
    return this.slots.filter((s) => s.task).length + this.waiting.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.waiting.splice(0)) t.resolve({ ok: false, error: { code: "CANCELLED", message: "The server is shutting down" } });
    for (const slot of this.slots) this.finish(slot, { ok: false, error: { code: "CANCELLED", message: "The server is shutting down" } }, false);
    for (const slot of this.slots) this.endWorker(slot);
    await this.ended();
  }

  /** Resolves once every worker being ended is gone and the files it held are closed. */
  async ended(): Promise<void> {
    while (this.ending.size) await Promise.all(this.ending);
  }

  /**
   * Replaces every idle worker with a fresh one, which loads an engine only when a run needs it:
   * after the boot's warm-up, whose runs loaded the PDF engine (about 35 MB resident) in a server
   * that may never run a PDF tool itself.
   */
  recycleIdle(): void {
    for (const slot of this.slots) if (!slot.task && !this.closed) this.replace(slot);
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerUrl);
    let markReady!: () => void;
    const slot: Slot = { worker, ledger: newFileLedger(), ready: new Promise((r) => (markReady = r)), task: null, timer: null };
    worker.onmessage = (event: MessageEvent<PoolReply>) => this.onMessage(slot, event.data, markReady);
    worker.addEventListener("error", (event) => this.onCrash(slot, (event as ErrorEvent).message || "worker error"));
    worker.addEventListener("close", () => this.onCrash(slot, "worker exited"));
    return slot;
  }

  private onMessage(slot: Slot, msg: PoolReply, markReady: () => void) {
    if (msg.type === "ready") {
      markReady();
      return this.dispatch();
    }
    if (!slot.task || msg.id !== slot.task.id) return;
    if (msg.type === "started") {
      this.startClock(slot, slot.task);
      slot.task.onStarted?.();
    } else if (msg.type === "progress") slot.task.onProgress?.(msg.fraction);
    else this.finish(slot, msg.ok ? { ok: true, outputs: msg.outputs, ranMs: msg.ranMs } : { ok: false, error: msg.error });
  }

  private onCrash(slot: Slot, reason: string) {
    if (this.closed || !this.slots.includes(slot)) return;
    this.log.warn({ reason, task: slot.task?.slug }, "tool worker died; replacing it");
    this.finish(slot, { ok: false, error: { code: "WORKER_CRASHED", message: `The tool worker stopped (${reason}); the job did not finish` } });
  }

  /** Settle the slot's task; replace the worker when it cannot be trusted; take the next task. */
  private finish(slot: Slot, outcome: RunOutcome, next = true) {
    const task = slot.task;
    if (slot.timer) clearTimeout(slot.timer);
    slot.task = null;
    slot.timer = null;
    if (task) task.resolve(outcome);
    if (!outcome.ok && REPLACE_AFTER.has(outcome.error.code) && !this.closed) this.replace(slot);
    if (next) this.dispatch();
  }

  /** The tool itself began: from here on, the run's own timeout applies. */
  private startClock(slot: Slot, task: Task) {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => this.finish(slot, { ok: false, error: { code: "TIMEOUT", message: `The tool ran longer than ${formatDuration(task.timeoutMs)} and was stopped` } }), task.timeoutMs);
  }

  private replace(slot: Slot) {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.endWorker(slot);
    this.slots[i] = this.spawn();
  }

  /**
   * Terminates the slot's worker once no host-file call of it is under way (within about a
   * millisecond; it starts none after the stop), then closes the files it held open. A worker
   * stuck in a call for the drain's limit is terminated anyway, and its files are left open:
   * closing a descriptor still in use could let the next file opened take its number.
   */
  private endWorker(slot: Slot): void {
    const ending = stopAndDrain(slot.ledger).then((held) => {
      slot.worker.terminate();
      if (held === null) this.log.warn(`a tool worker was still reading or writing a file after ${formatDuration(CALL_LIMIT_MS)}; ended it and left its files open`);
      for (const fd of held ?? []) closeQuietly(fd);
    });
    this.ending.add(ending);
    void ending.finally(() => this.ending.delete(ending));
  }

  private dispatch() {
    for (const slot of this.slots) {
      if (slot.task || this.waiting.length === 0) continue;
      void slot.ready.then(() => this.start(slot));
    }
  }

  private start(slot: Slot) {
    if (slot.task || this.closed || !this.slots.includes(slot)) return;
    const task = this.waiting.shift();
    if (!task) return;
    if (task.signal?.aborted) {
      task.resolve({ ok: false, error: { code: "CANCELLED", message: "The run was cancelled" } });
      return this.dispatch();
    }
    slot.task = task;
    slot.timer = setTimeout(() => this.finish(slot, { ok: false, error: { code: "WORKER_CRASHED", message: `The tool worker did not load ${task.slug} within ${formatDuration(this.startupTimeoutMs)}; the job did not run` } }), this.startupTimeoutMs);
    task.signal?.addEventListener("abort", () => slot.task === task && this.finish(slot, { ok: false, error: { code: "CANCELLED", message: "The run was cancelled" } }), { once: true });
    const transfer = [...new Set(task.inputs.map((i) => i.bytes.buffer as ArrayBuffer))];
    slot.worker.postMessage({ type: "run", id: task.id, slug: task.slug, inputs: task.inputs, params: task.params, outputDir: task.outputDir, staging: task.staging, ledger: slot.ledger }, transfer);
  }
}

/** Closes a descriptor a terminated worker held (one it had closed itself is not in its ledger). */
function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing was left open.
  }
}
