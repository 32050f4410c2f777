/** A batch's progress bar and words, the same in the list and in the open batch. */
import { endedOf, progressText, type Counters } from "./progress";

export function ProgressLine({ counters, label }: { counters: Counters; label: string }) {
  return (
    <div className="batch-progress">
      <progress aria-label={label} max={counters.total || 1} value={endedOf(counters)} />
      <span className="batch-progress-text">{progressText(counters)}</span>
    </div>
  );
}
