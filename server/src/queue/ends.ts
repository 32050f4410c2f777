/**
 * A tool job's end, handed by the executor that recorded it (tools/tool-run.ts) to the requests
 * of the same process that wait for it (POST /api/tools/{slug}): the waiting request answers as
 * soon as the outcome has committed, without polling the job row or reading it back. A job run
 * by another process is not heard of here; its waiter polls the database as before.
 */
import type { file } from "../db/schema";
import type { JobRow } from "./kinds";

/** What an answer shows of an output file. */
export type OutputFile = Pick<typeof file.$inferSelect, "id" | "filename" | "mime" | "size">;

/** The job row as its ending committed it, and the output files it recorded (none for a failure). */
export interface Ended {
  row: JobRow;
  outputs: OutputFile[];
}

/**
 * How many ends are kept for a wait that starts only after its job ended (a request whose
 * Idempotency-Key bookkeeping took longer than the tool): a few recent ones, never a backlog.
 */
const RECENT = 64;

export class JobEnds {
  private readonly waiters = new Map<string, Set<(end: Ended) => void>>();
  private readonly recent = new Map<string, Ended>();

  /** The job's outcome has committed (called after the transaction that recorded it). */
  ended(end: Ended): void {
    const id = end.row.id;
    const waiting = this.waiters.get(id);
    if (waiting) {
      this.waiters.delete(id);
      for (const hand of waiting) hand(end);
      return;
    }
    this.recent.set(id, end);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.keys().next().value!);
  }

  /**
   * Resolves with the job's end once this process records it (at once when it just did); `cancel`
   * stops listening (the waiter gave up or learned of the end another way).
   */
  wait(jobId: string): { end: Promise<Ended>; cancel: () => void } {
    const known = this.recent.get(jobId);
    if (known) {
      this.recent.delete(jobId);
      return { end: Promise.resolve(known), cancel: () => {} };
    }
    let hand!: (end: Ended) => void;
    const end = new Promise<Ended>((resolve) => (hand = resolve));
    let set = this.waiters.get(jobId);
    if (!set) this.waiters.set(jobId, (set = new Set()));
    set.add(hand);
    const cancel = () => {
      const s = this.waiters.get(jobId);
      s?.delete(hand);
      if (s?.size === 0) this.waiters.delete(jobId);
    };
    return { end, cancel };
  }
}
