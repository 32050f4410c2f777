/**
 * A batch's progress as the list and the open batch both show it: the same counters (kept in
 * step by api/batches.ts) through the same words, so the two never disagree while it runs.
 */
import type { BatchStatus } from "@vektor/shared/schemas/batch";

export interface Counters {
  status: BatchStatus;
  total: number;
  done: number;
  failed: number;
  cancelled?: number;
}

/** The status in plain words. */
export const STATUS_WORDS: Record<BatchStatus, string> = { queued: "Waiting to start", running: "Running", completed: "Completed", failed: "Failed", cancelled: "Cancelled" };

/** Items that ended one way or another (what the bar fills with). */
export const endedOf = (c: Counters) => c.done + c.failed + (c.cancelled ?? 0);

/** "Running: 3 of 10 done, 1 failed." */
export function progressText(c: Counters): string {
  const failed = c.failed ? `, ${c.failed} failed` : "";
  const cancelled = c.cancelled ? `, ${c.cancelled} cancelled` : "";
  return `${STATUS_WORDS[c.status]}: ${c.done} of ${c.total} done${failed}${cancelled}.`;
}
