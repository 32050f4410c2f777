/**
 * The run's steps as a list named `Steps`: each step's title, status word and duration, then its
 * attempts, its error with the code and what to do, its input and output files, and its log
 * lines. Steps of a sub-workflow are listed under their op.workflow step.
 */
import type { Run, Step } from "@vektor/shared/schemas/workflow";
import { adviceFor, elapsed, formatDuration, nestSteps, stepWord, toneOf } from "./run-view";
import { FileLinks } from "./FileLinks";

export interface StepListProps {
  run: Run;
  steps: readonly Step[];
  titleOf: (step: Step) => string;
  now: number;
}

export function StepList({ run, steps, titleOf, now }: StepListProps) {
  const children = nestSteps(steps);
  const render = (parent: string | null, label?: string) => (
    <ul className="run-steps" aria-label={label}>
      {(children.get(parent) ?? []).map((s) => (
        <StepItem key={s.nodeId} step={s} run={run} title={titleOf(s)} now={now}>
          {children.has(s.nodeId) ? render(s.nodeId, `Steps of ${titleOf(s)}`) : null}
        </StepItem>
      ))}
    </ul>
  );
  return render(null, "Steps");
}

function StepItem({ step, run, title, now, children }: { step: Step; run: Run; title: string; now: number; children: React.ReactNode }) {
  const word = stepWord(step, run);
  const ms = elapsed(step.startedAt, step.finishedAt, now);
  return (
    <li className={`run-step tone-${toneOf(word)}`}>
      <div className="run-step-head">
        <strong>{title}</strong> <span className="hint">{step.nodeId}</span> <span className="status-word">{word}</span>
        {ms !== null ? <span className="hint"> {formatDuration(ms)}</span> : null}
      </div>
      {step.attempts > 1 ? <p className="hint">Attempt {step.attempts}</p> : null}
      {step.error ? (
        <div className="step-error">
          <p className="error">
            <code>{step.error.code}</code>: {step.error.message}
          </p>
          <p className="hint">What to do: {adviceFor(step.error.code)}</p>
        </div>
      ) : null}
      <StepFiles step={step} title={title} />
      {step.logs.length ? (
        <details className="step-logs">
          <summary>Log of {title} ({step.logs.length} lines)</summary>
          <pre>{step.logs.join("\n")}</pre>
        </details>
      ) : null}
      {children}
    </li>
  );
}

/** The step's files, folded away: a run may pass many files through many steps. */
function StepFiles({ step, title }: { step: Step; title: string }) {
  const n = step.inputFileIds.length + step.outputFileIds.length;
  if (!n) return null;
  return (
    <details className="step-files">
      <summary>
        Files of {title}: {step.inputFileIds.length} in, {step.outputFileIds.length} out
      </summary>
      <FileLinks fileIds={step.inputFileIds} label={`Inputs of ${title}`} />
      <FileLinks fileIds={step.outputFileIds} label={`Outputs of ${title}`} />
    </details>
  );
}
