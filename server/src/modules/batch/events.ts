/**
 * Batch progress for the SSE streams. One polling loop serves every listener of every batch in
 * this process: each tick reads the counters of all watched batches in one query and tells the
 * listeners whose batch changed. Reading from the database means an item finished by another
 * process shows up too.
 *
 * A batch's end does not wait for the poll: each item's end is heard (NOTIFY vektor_batches,
 * migration 0020), and once as many were heard as items were open at the last read, the hub reads
 * at once. Progress itself stays at the poll's pace: reading the counters on every item's end
 * would keep the database busy for as long as a big batch runs.
 */
import type { Logger } from "../../log";
import type { BatchService } from "./service";
import { batchStatus, type BatchStatus } from "./status";

export interface Progress {
  total: number;
  done: number;
  failed: number;
  status: BatchStatus;
}

type Listener = (p: Progress) => void;
/** What each open stream is told when this process stops: end with a reconnect hint. */
type Stopping = () => void;

export class BatchEventHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly stoppers = new Map<Listener, Stopping>();
  private closed = false;
  private readonly last = new Map<string, string>();
  /** Per watched batch: its items not ended at the last read, and the ends heard since that read began. */
  private readonly ends = new Map<string, { open: number; heard: number }>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private ticking = false;
  /** The batch may have ended while a read was under way: read again when it is done. */
  private again = false;
  /** Polls made, for tests: many listeners must not multiply them. */
  ticks = 0;

  constructor(
    private readonly batches: BatchService,
    private readonly pollMs: number,
    private readonly log: Logger,
  ) {}

  /** The batch's current progress (the stream's first event). */
  async current(batchId: string): Promise<Progress> {
    const row = await this.batches.counts([batchId]);
    const [b] = await this.batchRows([batchId]);
    return progressOf(row.get(batchId), b?.total ?? 0, b?.cancelledAt ?? null);
  }

  /** Calls `listener` on each change of the batch and `stopping` when this process stops (close); returns the unsubscribe. */
  subscribe(batchId: string, listener: Listener, stopping: Stopping): () => void {
    // A stream opened while the process stops is told at once to connect again (elsewhere).
    if (this.closed) {
      queueMicrotask(stopping);
      return () => {};
    }
    this.stoppers.set(listener, stopping);
    let set = this.listeners.get(batchId);
    if (!set) this.listeners.set(batchId, (set = new Set()));
    set.add(listener);
    // Until the first read, the first end heard is reason enough to read.
    if (!this.ends.has(batchId)) this.ends.set(batchId, { open: 1, heard: 0 });
    this.timer ??= setInterval(() => void this.tick(), this.pollMs);
    return () => {
      this.stoppers.delete(listener);
      set.delete(listener);
      if (set.size === 0) {
        this.listeners.delete(batchId);
        this.last.delete(batchId);
        this.ends.delete(batchId);
      }
      if (this.listeners.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /**
   * An item of `batchId` ended (from any process). When every item open at the last read has,
   * the batch may be over: read now. Ends heard twice (one counted by a read under way, then
   * heard) only make a read early, which finds it not over and counts again.
   */
  heard(batchId: string): void {
    const e = this.ends.get(batchId);
    if (e && ++e.heard >= e.open) void this.tick(true);
  }

  /** A read of every watched batch: the poll's, or `prompt` (an end heard), which a read under way does not swallow. */
  private async tick(prompt = false): Promise<void> {
    if (this.listeners.size === 0) return;
    if (this.ticking) {
      this.again ||= prompt;
      return;
    }
    this.ticking = true;
    this.ticks++;
    try {
      const ids = [...this.listeners.keys()];
      for (const id of ids) this.ends.get(id)!.heard = 0;
      const [counts, rows] = await Promise.all([this.batches.counts(ids), this.batchRows(ids)]);
      for (const b of rows) {
        const c = counts.get(b.id);
        const e = this.ends.get(b.id);
        if (e) e.open = c ? c.queued + c.running : b.total;
        const p = progressOf(c, b.total, b.cancelledAt);
        const json = JSON.stringify(p);
        if (this.last.get(b.id) === json) continue;
        this.last.set(b.id, json);
        for (const l of this.listeners.get(b.id) ?? []) l(p);
      }
    } catch (err) {
      this.log.warn({ err }, "batch progress poll failed");
    } finally {
      this.ticking = false;
      if (this.again) {
        this.again = false;
        void this.tick(true);
      }
    }
  }

  private batchRows(ids: string[]) {
    return this.batches.rows(ids);
  }

  /**
   * Stops: every open stream is told to reconnect and ended (an endless stream would keep a
   * graceful HTTP stop waiting; its client resumes on another process, or on this one restarted).
   */
  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const stoppers = [...this.stoppers.values()];
    this.stoppers.clear();
    this.listeners.clear();
    this.ends.clear();
    for (const stop of stoppers) stop();
  }
}

function progressOf(c: { done: number; failed: number; cancelled: number; running: number; queued: number; total: number } | undefined, total: number, cancelledAt: Date | null): Progress {
  const counts = c ?? { total, done: 0, failed: 0, cancelled: 0, running: 0, queued: 0 };
  return { total, done: counts.done, failed: counts.failed, status: batchStatus({ ...counts, total }, cancelledAt) };
}
