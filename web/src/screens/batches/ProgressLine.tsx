/**
 * A batch's progress bar and words, the same in the list and in the open batch: both draw the
 * batch's latest counters from one place (api/batch-counters.ts), `counters` until any arrived.
 */
import { useCounters } from "../../api/batch-counters";
import { endedOf, progressText, type Counters } from "./progress";

export function ProgressLine({ id, counters, label }: { id: string; counters: Counters; label: string }) {
  const latest = useCounters(id, counters);
  return (
    <div className="batch-progress">
      <progress aria-label={label} max={latest.total || 1} value={endedOf(latest)} />
      <span className="batch-progress-text">{progressText(latest)}</span>
    </div>
  );
}
