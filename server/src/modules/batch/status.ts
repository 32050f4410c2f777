/** Batch counters and the status they imply (contract section 6). */
export interface Counts {
  total: number;
  done: number;
  failed: number;
  cancelled: number;
  running: number;
  queued: number;
}

/** Which counter each item (job) status adds to. */
const COUNTER: Record<string, keyof Omit<Counts, "total">> = { succeeded: "done", failed: "failed", cancelled: "cancelled", running: "running", queued: "queued" };

/** Counters of a batch from its items' statuses. */
export function countStatuses(statuses: string[]): Counts {
  const c: Counts = { total: statuses.length, done: 0, failed: 0, cancelled: 0, running: 0, queued: 0 };
  for (const status of statuses) if (COUNTER[status]) c[COUNTER[status]]++;
  return c;
}

export type BatchStatus = "queued" | "running" | "completed" | "failed" | "cancelled";

export const TERMINAL_BATCH = new Set<BatchStatus>(["completed", "failed", "cancelled"]);

/** cancelled once cancelled; completed when every item ended; failed when every item failed. */
export function batchStatus(c: Counts, cancelledAt: Date | null): BatchStatus {
  if (cancelledAt) return "cancelled";
  if (c.queued + c.running > 0) return c.running > 0 || c.done + c.failed > 0 ? "running" : "queued";
  return c.total > 0 && c.failed === c.total ? "failed" : "completed";
}
