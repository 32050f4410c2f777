/**
 * One bar per step along the run's span, so where the time went shows at a glance. The bars are
 * a picture of the Steps list (which says each duration in words): hidden from screen readers.
 */
import type { Run, Step } from "@vektor/shared/schemas/workflow";
import { formatDuration, stepWord, timeline, toneOf } from "./run-view";

export function Timeline({ run, steps, titleOf, now }: { run: Run; steps: readonly Step[]; titleOf: (s: Step) => string; now: number }) {
  const { bars, spanMs } = timeline(steps, now);
  if (!spanMs && bars.every((b) => b.ms === null)) return <p className="hint">No step has started yet.</p>;
  return (
    <div className="timeline" aria-hidden="true">
      {steps.map((s, i) => {
        const bar = bars[i]!;
        return (
          <div key={s.nodeId} className="timeline-row">
            <span className="timeline-label">{titleOf(s)}</span>
            <span className="timeline-track">
              {bar.ms !== null ? <span className={`timeline-bar tone-${toneOf(stepWord(s, run))}`} style={{ marginLeft: `${bar.left}%`, width: `${bar.width}%` }} /> : null}
            </span>
            <span className="timeline-ms">{bar.ms !== null ? formatDuration(bar.ms) : ""}</span>
          </div>
        );
      })}
      <p className="hint">Whole span: {formatDuration(spanMs)}</p>
    </div>
  );
}
