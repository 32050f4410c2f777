/**
 * A tool call's run begun while its job row is being written (issue 24). PGlite writes on this
 * process's own thread, a statement of 1-2 ms when its caches are cold, while tools run in worker
 * threads: so when this process already knows the rows of a call's inputs (InputHints: an upload
 * confirmed here, an earlier call on them, an output of one), it reads them and starts the tool
 * before the insert, and the job adopts that run when the insert admits exactly those inputs and
 * claims the job here. Otherwise the run is dropped and the job runs as any other. Either way
 * nothing is recorded or answered before the job's row is: the row, the admission of its inputs,
 * the per-user limit and the crash guarantees are those of every job.
 */
import type { InputFile } from "../queue/kinds";
import type { RunOutcome } from "./pool-protocol";

/** What is known of a file from its row, enough to read it and run a tool on it. */
export type InputHint = InputFile & { userId: string };

/** Files remembered: the most recently seen stay (a user's working set), the others drop out. */
const MAX_HINTS = 4096;

/**
 * The rows of files this process saw lately, by id: only a hint of what a file was. A run that
 * used one is kept only when the job's own admission answers the same row (EarlyRun.matches), so
 * a file renamed, deleted or replaced meanwhile costs a run that is dropped, never a wrong one.
 */
export class InputHints {
  private readonly byId = new Map<string, InputHint>();

  constructor(private readonly max = MAX_HINTS) {}

  /** `rows` are files of `userId`, as a committed row says (uploaded, admitted or written). */
  learn(userId: string, rows: readonly InputFile[]): void {
    for (const r of rows) {
      if (r.status !== "UPLOADED") continue;
      this.byId.delete(r.id);
      this.byId.set(r.id, { id: r.id, status: r.status, filename: r.filename, size: r.size, mime: r.mime, storageKey: r.storageKey, userId });
      if (this.byId.size > this.max) this.byId.delete(this.byId.keys().next().value!);
    }
  }

  /** The hints of every id, all of `userId`'s files; null when one is unknown or another user's. */
  of(userId: string, ids: readonly string[]): InputHint[] | null {
    const hints: InputHint[] = [];
    for (const id of ids) {
      const hint = this.byId.get(id);
      if (!hint || hint.userId !== userId) return null;
      hints.push(hint);
    }
    return hints;
  }
}

/** How long a dropped run may go on before it is stopped (EarlyRun.drop). */
export const DROP_GRACE_MS = 2000;

/** A run begun before its job row; `adopt` it once the row admits the same inputs, else `drop` it. */
export class EarlyRun {
  /** When the worker's answer arrived here (performance.now()), for the job's trace. */
  arrivedAt = 0;
  readonly outcome: Promise<RunOutcome>;
  private progress: ((fraction: number) => void) | null = null;
  private readonly controller = new AbortController();

  constructor(
    /** The input rows the run read, in the job's order. */
    readonly inputs: readonly InputHint[],
    start: (signal: AbortSignal, onProgress: (fraction: number) => void) => Promise<RunOutcome>,
    /** What a dropped run's outcome leaves behind is removed here (files its worker staged). */
    private readonly discard: (outcome: RunOutcome) => void = () => {},
  ) {
    this.outcome = start(this.controller.signal, (fraction) => this.progress?.(fraction)).then((outcome) => {
      this.arrivedAt = performance.now();
      return outcome;
    });
  }

  /** Whether the admitted rows are the ones this run read: same files, names, types, sizes and objects. */
  matches(rows: readonly InputFile[]): boolean {
    if (rows.length !== this.inputs.length) return false;
    const byId = new Map(rows.map((r) => [r.id, r]));
    return this.inputs.every((h) => {
      const r = byId.get(h.id);
      return !!r && r.status === "UPLOADED" && r.filename === h.filename && r.mime === h.mime && r.size === h.size && r.storageKey === h.storageKey;
    });
  }

  /** The job takes the run over: its cancel stops it, its progress is written from here on. */
  adopt(signal: AbortSignal, onProgress: (fraction: number) => void): Promise<RunOutcome> {
    this.progress = onProgress;
    if (signal.aborted) this.controller.abort();
    else signal.addEventListener("abort", () => this.controller.abort(), { once: true });
    return this.outcome;
  }

  /**
   * No job takes the run: what it answers is dropped (its outputs are bytes in memory). It may
   * finish within `graceMs`, as stopping a worker mid-run costs a new worker and its engines'
   * load, and inputs this small (EARLY_MAX_BYTES) seldom run long; past that it is stopped, so a
   * long run nobody waits for does not hold a worker that queued jobs need.
   */
  drop(graceMs = DROP_GRACE_MS): void {
    this.progress = null;
    const timer = setTimeout(() => this.controller.abort(), graceMs);
    void this.outcome.then((outcome) => {
      clearTimeout(timer);
      this.discard(outcome);
    });
  }
}
