/**
 * A batch's progress as the list and the open batch both show it: the same counters (one entry
 * per batch, api/batch-counters.ts) through the same words, so the two never disagree.
 */
import type { BatchStatus } from "@vektor/shared/schemas/batch";
import { endedOf, type Counters } from "../../api/batch-counters";

export { endedOf, type Counters };

/** The status in plain words. */
export const STATUS_WORDS: Record<BatchStatus, string> = { queued: "Waiting to start", running: "Running", completed: "Completed", failed: "Failed", cancelled: "Cancelled" };

/** "Running: 3 of 10 done, 1 failed." */
export function progressText(c: Counters): string {
  const failed = c.failed ? `, ${c.failed} failed` : "";
  const cancelled = c.cancelled ? `, ${c.cancelled} cancelled` : "";
  return `${STATUS_WORDS[c.status]}: ${c.done} of ${c.total} done${failed}${cancelled}.`;
}
