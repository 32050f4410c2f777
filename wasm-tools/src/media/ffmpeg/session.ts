/**
 * Host side of one ffmpeg job: a fresh job worker with a fresh core instance, driven by messages
 * (write inputs, exec, read outputs), terminated when the job ends or the AbortSignal fires, so
 * an abort returns at once even while ffmpeg is mid-encode.
 */
import { ToolError, type RunContext } from "@vektor/shared/tools/manifest";
import { newFileLedger, stopAndDrain, threadLedgers } from "../../runtime/file-ledger";
import { createJobWorker, loadFfmpegModule } from "../init";
import type { JobMessage, JobRequest } from "./protocol";

/** The outcome of one ffmpeg command: its exit code and every log line it printed. */
export interface ExecResult {
  code: number;
  log: string[];
}

type Pending = { resolve: (reply: JobMessage & { type: "reply"; ok: true }) => void; reject: (err: unknown) => void };

let live = 0;

/** Job workers currently alive in this thread (a health check for hosts; tests use it to see aborts clean up). */
export function liveJobWorkers(): number {
  return live;
}

/** One job's worker: `exec` as often as needed, then `close` (or let `withFfmpeg` do it). */
export class FfmpegSession {
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private lines: string[] = [];
  private onLine?: (line: string) => void;
  private closing?: Promise<void>;
  /** Made when a host folder is mounted: the worker is then ended between host-file calls only (runtime/file-ledger.ts). */
  private ledger?: Int32Array;
  private failure?: unknown;
  private readonly onAbort = () => this.fail(new ToolError("CANCELLED", "The run was cancelled"));

  private constructor(
    private readonly worker: Worker,
    private readonly signal: AbortSignal,
  ) {
    live++;
    worker.onmessage = (event: MessageEvent<JobMessage>) => this.receive(event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault?.();
      this.fail(new ToolError("TOOL_FAILED", `The ffmpeg worker crashed: ${event.message || "unknown error"}`));
    };
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  /** Starts a job worker and instantiates the core in it. */
  static async open(ctx: Pick<RunContext, "signal">): Promise<FfmpegSession> {
    if (ctx.signal.aborted) throw new ToolError("CANCELLED", "The run was cancelled");
    const module = await loadFfmpegModule();
    if (ctx.signal.aborted) throw new ToolError("CANCELLED", "The run was cancelled"); // aborted while compiling
    const session = new FfmpegSession(createJobWorker(), ctx.signal);
    try {
      await session.request({ type: "init", module });
    } catch (err) {
      await session.close();
      if (err instanceof ToolError) throw err;
      throw new ToolError("TOOL_FAILED", `Could not start ffmpeg: ${err instanceof Error ? err.message : String(err)}`);
    }
    return session;
  }

  /** Puts `bytes` into the instance's in-memory file system (a copy is transferred; the caller's array stays usable). */
  async write(name: string, bytes: Uint8Array): Promise<void> {
    const copy = bytes.slice();
    await this.request({ type: "write", name, bytes: copy }, [copy.buffer]);
  }

  /** Mounts the host folder `host` at `at` (absolute): ffmpeg reads and writes its files there on the host's disk. */
  async mountHost(host: string, at: string): Promise<void> {
    // Its calls count in this thread's ledger too, so the server's pool, ending this thread, waits for them.
    this.ledger ??= newFileLedger(0);
    await this.request({ type: "mount", host, at, ledgers: [this.ledger, ...threadLedgers()] });
  }

  /** Mounts the browser's File or Blob at `at` as `name`: ffmpeg reads it a piece at a time (WORKERFS). */
  async mountBlob(blob: Blob, name: string, at: string): Promise<void> {
    await this.request({ type: "mountBlob", blob, name, at });
  }

  /** Makes `name` a link to `target` (a file in a mounted folder, given to ffmpeg under a name of ours). */
  async link(target: string, name: string): Promise<void> {
    await this.request({ type: "link", target, name });
  }

  /** The size of `name`, or undefined when ffmpeg wrote none by that name. */
  async size(name: string): Promise<number | undefined> {
    return (await this.request({ type: "size", name })).size;
  }

  /** Runs `ffmpeg <args>`; `onLine` sees each log line as it comes. */
  async exec(args: string[], onLine?: (line: string) => void): Promise<ExecResult> {
    this.lines = [];
    this.onLine = onLine;
    const reply = await this.request({ type: "exec", args });
    return { code: reply.code ?? -1, log: this.lines };
  }

  /** A file ffmpeg wrote, or undefined when it wrote none by that name. */
  async read(name: string): Promise<Uint8Array | undefined> {
    return (await this.request({ type: "read", name })).bytes;
  }

  /**
   * Terminates the worker (and with it the instance and its memory): at once, or, with a host
   * folder mounted, once no host-file call is under way (within a millisecond or so).
   */
  close(): Promise<void> {
    this.closing ??= this.end();
    return this.closing;
  }

  private async end(): Promise<void> {
    this.signal.removeEventListener("abort", this.onAbort);
    if (this.ledger) await stopAndDrain(this.ledger);
    this.worker.terminate();
    live--;
  }

  private request(body: DistributiveOmit<JobRequest, "id">, transfer: Transferable[] = []): Promise<JobMessage & { type: "reply"; ok: true }> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closing) return Promise.reject(new ToolError("TOOL_FAILED", "The ffmpeg session is closed"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...body, id } as JobRequest, transfer);
    });
  }

  private receive(message: JobMessage): void {
    if (this.failure) return; // what a failed job's worker says while it is being stopped
    if (message.type === "log") {
      if (this.lines.length < 20_000) this.lines.push(message.line);
      this.onLine?.(message.line);
      return;
    }
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.ok) waiting.resolve(message);
    else waiting.reject(new ToolError("TOOL_FAILED", `ffmpeg failed: ${message.message}`));
  }

  /** Ends the worker, then rejects everything in flight with `err` (so a caller that sees it finds no host file open). */
  private fail(err: unknown): void {
    if (this.failure) return;
    this.failure = err;
    void this.close().then(() => {
      for (const { reject } of this.pending.values()) reject(err);
      this.pending.clear();
    });
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Opens a session, hands it to `use`, and always closes it. */
export async function withFfmpeg<T>(ctx: Pick<RunContext, "signal">, use: (session: FfmpegSession) => Promise<T>): Promise<T> {
  const session = await FfmpegSession.open(ctx);
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}
