/**
 * The host side of the tool worker: one disposable Web Worker behind a queue. Every run can be
 * aborted (the worker's AbortController first, then the worker itself); a run past its time
 * limit, a worker that crashed, and one whose run failed or was cancelled (its WASM heap may be
 * poisoned) are terminated and replaced by a fresh worker on the next call, the same rules as
 * the server's pool; an idle worker shuts down. Failures come back as ToolError with a code.
 */
import { ToolError, type ToolErrorCode, type ToolInput, type ToolManifest, type ToolOutput } from "@vektor/shared/tools/manifest";
import type { RunResult, ToolWorkerApi, WasmSource, WorkerReady } from "@vektor/wasm-tools";
import * as Comlink from "comlink";
import type { EngineDownload } from "./downloads";
import { holdOutputSession, removeRunFolder, removeRunFolderSoon } from "./output-folders";

export interface BridgeOptions {
  /** Makes a worker; the default is the bundled tool.worker.ts as a module worker. */
  createWorker?: () => Worker;
  /** Shut an unused worker down after this long (ms). */
  idleMs?: number;
  /** Give up on a worker that has not posted "ready" by then (ms). */
  readyTimeoutMs?: number;
  /** After a cancel, how long the run may take to stop by itself before its worker is terminated (ms). */
  cancelGraceMs?: number;
  /** WASM sources to pass to each new worker (`configure`), e.g. modules compiled by the page. */
  wasm?: Record<string, WasmSource>;
  /** Hears how the worker's engine downloads go (downloads.ts). */
  onEngineDownload?: (download: EngineDownload) => void;
}

export interface RunOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number, message?: string) => void;
  /** Time limit of this run (ms); the manifest's `limits.timeoutMs` is a good value. */
  timeoutMs?: number;
}

interface Slot {
  worker: Worker;
  api: Comlink.Remote<ToolWorkerApi>;
  ready: Promise<void>;
  /** Rejects with WORKER_CRASHED when the worker reports an uncaught error, CANCELLED when it is terminated. */
  crashed: Promise<never>;
  fail: (err: ToolError) => void;
}

/** After these codes the worker is not trusted again (mirrors the server pool). */
const REPLACE_AFTER = new Set<ToolErrorCode>(["TOOL_FAILED", "TIMEOUT", "WORKER_CRASHED", "CANCELLED"]);

/** The bundled tool worker (Vite turns this URL into the worker's own chunk). */
export function createToolWorker(): Worker {
  return new Worker(new URL("./tool.worker.ts", import.meta.url), { type: "module", name: "vektor-tools" });
}

/** Runs tools in a Web Worker on behalf of the page. */
export class ToolBridge {
  private slot: Slot | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly opts: Required<Omit<BridgeOptions, "wasm" | "onEngineDownload">> & Pick<BridgeOptions, "wasm" | "onEngineDownload">;
  /** This page's folder of tool outputs on disk (output-folders.ts), kept while the page lives; none without OPFS. */
  private readonly outputSession = holdOutputSession();
  /** Runs whose outputs came as Files on disk, by run id: the outputs not released yet. */
  private readonly onDisk = new Map<string, Set<Blob>>();

  constructor(options: BridgeOptions = {}) {
    this.opts = {
      createWorker: options.createWorker ?? createToolWorker,
      idleMs: options.idleMs ?? 60_000,
      readyTimeoutMs: options.readyTimeoutMs ?? 30_000,
      cancelGraceMs: options.cancelGraceMs ?? 2_000,
      wasm: options.wasm,
      onEngineDownload: options.onEngineDownload,
    };
  }

  /** Whether a worker is alive right now (for diagnostics and tests). */
  get alive(): boolean {
    return this.slot !== null;
  }

  /** Whether a call (a run, or the manifests) is queued or in flight. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** The tools the worker offers. */
  manifests(): Promise<ToolManifest[]> {
    return this.queued(async () => {
      const slot = await this.acquire();
      return Promise.race([slot.api.manifests(), slot.crashed]);
    });
  }

  /**
   * Runs `slug` on `inputs` in the worker. The inputs' buffers are transferred (the caller's
   * views are detached afterwards); a File or Blob (ToolInput.blob) is passed as a handle, its
   * bytes not copied; outputs come back transferred.
   */
  run(slug: string, inputs: ToolInput[], params: unknown, options: RunOptions = {}): Promise<ToolOutput[]> {
    return this.queued(() => this.runNow(slug, inputs, params, options));
  }

  /**
   * The page no longer needs `output`: when it is a File on disk (ToolOutput.blob), its run's
   * folder is removed once none of that run's outputs is kept. Outputs never released go when the
   * page does (output-folders.ts).
   */
  release(output: ToolOutput): void {
    if (!output.blob) return;
    for (const [run, files] of this.onDisk) {
      if (!files.delete(output.blob)) continue;
      if (files.size === 0) {
        this.onDisk.delete(run);
        void removeRunFolder(this.outputSession, run);
      }
      return;
    }
  }

  /** Terminates the worker now (a run in flight fails with CANCELLED). */
  terminate(): void {
    this.discard();
  }

  private async runNow(slug: string, inputs: ToolInput[], params: unknown, { signal, onProgress, timeoutMs }: RunOptions): Promise<ToolOutput[]> {
    if (signal?.aborted) throw cancelled();
    const slot = await this.acquire(signal);
    const id = crypto.randomUUID();
    const owned = inputs.map((input) => ({ ...input, bytes: ownBuffer(input.bytes) }));
    const transfer = [...new Set(owned.map((input) => input.bytes.buffer as ArrayBuffer))];
    const request = { id, slug, inputs: owned, params, outputSession: this.outputSession };
    const call = slot.api.run(Comlink.transfer(request, transfer), onProgress ? Comlink.proxy(onProgress) : undefined) as Promise<RunResult>;

    const stops: Promise<never>[] = [slot.crashed];
    const cleanups: (() => void)[] = [];
    if (timeoutMs && Number.isFinite(timeoutMs)) {
      stops.push(
        new Promise<never>((_, reject) => {
          const timer = setTimeout(() => reject(new ToolError("TIMEOUT", `${slug} did not finish within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
          cleanups.push(() => clearTimeout(timer));
        }),
      );
    }
    if (signal) {
      stops.push(
        new Promise<never>((_, reject) => {
          const onAbort = () => {
            // Ask the run to stop; whether or not it does within the grace period, this worker is replaced.
            void slot.api.cancel(id).catch(() => {});
            const grace = setTimeout(() => reject(cancelled()), this.opts.cancelGraceMs);
            call.then(
              () => {
                clearTimeout(grace);
                reject(cancelled());
              },
              () => {
                clearTimeout(grace);
                reject(cancelled());
              },
            );
          };
          signal.addEventListener("abort", onAbort, { once: true });
          cleanups.push(() => signal.removeEventListener("abort", onAbort));
        }),
      );
    }

    try {
      const result = await Promise.race([call, ...stops]);
      // A run that finished after its cancel (the tool did not look at the signal) is still cancelled.
      if (signal?.aborted) throw cancelled();
      if (!result.ok) throw new ToolError(result.error.code, result.error.message);
      const files = result.outputs.flatMap((o) => (o.blob ? [o.blob] : []));
      if (files.length) this.onDisk.set(id, new Set(files));
      return result.outputs;
    } catch (err) {
      const error = asToolError(err);
      if (REPLACE_AFTER.has(error.code)) this.discard(slot);
      // The worker removes a failed run's outputs itself, unless it was stopped first: then they go here,
      // once the terminated worker has let go of the files it was writing.
      if (this.outputSession) void removeRunFolderSoon(this.outputSession, id);
      throw error;
    } finally {
      for (const cleanup of cleanups) cleanup();
    }
  }

  /** Serialises calls (one run per worker at a time) and arms the idle timer when the queue drains. */
  private queued<T>(work: () => Promise<T>): Promise<T> {
    this.pending++;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const result = this.tail.then(work, work);
    this.tail = result.catch(() => {});
    const settle = () => {
      if (--this.pending === 0 && this.slot) this.idleTimer = setTimeout(() => this.discard(), this.opts.idleMs);
    };
    result.then(settle, settle);
    return result;
  }

  /** The live worker, or a new one once it is ready (configured with the host's WASM sources). */
  private async acquire(signal?: AbortSignal): Promise<Slot> {
    const slot = (this.slot ??= this.spawn());
    try {
      const aborted = signal
        ? new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(cancelled()), { once: true }))
        : new Promise<never>(() => {});
      await Promise.race([slot.ready, slot.crashed, aborted]);
      return slot;
    } catch (err) {
      this.discard(slot);
      throw asToolError(err);
    }
  }

  private spawn(): Slot {
    const worker = this.opts.createWorker();
    const api = Comlink.wrap<ToolWorkerApi>(worker);
    let crash!: (err: ToolError) => void;
    const crashed = new Promise<never>((_, reject) => (crash = reject));
    crashed.catch(() => {});
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      crash(new ToolError("WORKER_CRASHED", `The tool worker crashed: ${event.message || "uncaught error"}`));
    });
    worker.addEventListener("message", (event: MessageEvent<EngineDownload | null>) => {
      if (event.data?.type === "engine-download") this.opts.onEngineDownload?.(event.data);
    });
    worker.addEventListener("messageerror", () => crash(new ToolError("WORKER_CRASHED", "The tool worker sent a message that could not be read")));
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ToolError("WORKER_CRASHED", `The tool worker did not start within ${this.opts.readyTimeoutMs / 1000} s`)), this.opts.readyTimeoutMs);
      const onMessage = (event: MessageEvent<WorkerReady | unknown>) => {
        if ((event.data as WorkerReady | null)?.type !== "ready") return;
        worker.removeEventListener("message", onMessage);
        clearTimeout(timer);
        resolve();
      };
      worker.addEventListener("message", onMessage);
    }).then(() => (this.opts.wasm ? api.configure(this.opts.wasm) : undefined));
    ready.catch(() => {});
    return { worker, api, ready, crashed, fail: crash };
  }

  /** Terminates `slot` (default: the current one); the next call spawns a fresh worker. */
  private discard(slot: Slot | null = this.slot): void {
    if (!slot) return;
    slot.fail(new ToolError("CANCELLED", "The tool worker was shut down"));
    slot.api[Comlink.releaseProxy]();
    slot.worker.terminate();
    if (this.slot === slot) this.slot = null;
    if (this.idleTimer && !this.slot) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
  }
}

function cancelled(): ToolError {
  return new ToolError("CANCELLED", "The run was cancelled");
}

function asToolError(err: unknown): ToolError {
  if (err instanceof ToolError) return err;
  return new ToolError("WORKER_CRASHED", `The tool worker failed: ${(err as Error)?.message ?? String(err)}`);
}

/** A view that owns exactly its buffer (a copy when it is a window into a larger one). */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? bytes : bytes.slice();
}
