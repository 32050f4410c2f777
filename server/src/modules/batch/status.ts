/** Batch counters and the status they imply (contract section 6). */
export interface Counts {
  total: number;
  done: number;
  failed: number;
  cancelled: number;
  running: number;
  queued: number;
}

export type BatchStatus = "queued" | "running" | "completed" | "failed" | "cancelled";

export const TERMINAL_BATCH = new Set<BatchStatus>(["completed", "failed", "cancelled"]);

/** cancelled once cancelled; completed when every item ended; failed when every item failed. */
export function batchStatus(c: Counts, cancelledAt: Date | null): BatchStatus {
  if (cancelledAt) return "cancelled";
  if (c.queued + c.running > 0) return c.running > 0 || c.done + c.failed > 0 ? "running" : "queued";
  return c.total > 0 && c.failed === c.total ? "failed" : "completed";
}
