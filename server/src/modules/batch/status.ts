/** Batch counters and the status they imply (contract section 6). */
import type { BatchStatus, JobStatus } from "@vektor/shared/schemas/vocab";

export type { BatchStatus } from "@vektor/shared/schemas/vocab";

export interface Counts {
  total: number;
  done: number;
  failed: number;
  cancelled: number;
  running: number;
  queued: number;
}

/** Which counter each item (job) status adds to. */
const COUNTER: Record<JobStatus, keyof Omit<Counts, "total">> = { succeeded: "done", failed: "failed", cancelled: "cancelled", running: "running", queued: "queued" };

/** Counters of a batch from its items' statuses. */
export function countStatuses(statuses: JobStatus[]): Counts {
  const c: Counts = { total: statuses.length, done: 0, failed: 0, cancelled: 0, running: 0, queued: 0 };
  for (const status of statuses) if (COUNTER[status]) c[COUNTER[status]]++;
  return c;
}

/** cancelled once cancelled; completed when every item ended; failed when every item failed. */
export function batchStatus(c: Counts, cancelledAt: Date | null): BatchStatus {
  if (cancelledAt) return "cancelled";
  if (c.queued + c.running > 0) return c.running > 0 || c.done + c.failed > 0 ? "running" : "queued";
  return c.total > 0 && c.failed === c.total ? "failed" : "completed";
}
