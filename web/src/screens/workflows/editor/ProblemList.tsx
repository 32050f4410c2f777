/**
 * Problems: the server's validation issues of the graph as it is now; one about a step is a
 * button that opens that step's settings and shows it on the canvas. "No problems" when none.
 */
import type { ValidationIssue } from "@vektor/shared/schemas/workflow";
import { useId } from "react";
import { ErrorText } from "../../../components/Guard";

interface Props {
  issues: ValidationIssue[];
  /** The first answer is not there yet. */
  checking: boolean;
  error: unknown;
  labelOf: (id: string) => string;
  /** Whether the step an issue names is still in the graph. */
  known: (id: string) => boolean;
  onPick: (id: string) => void;
}

export function ProblemList({ issues, checking, error, labelOf, known, onPick }: Props) {
  const id = useId();
  return (
    <section className="problems" aria-labelledby={id}>
      <h2 id={id}>Problems</h2>
      {issues.length === 0 ? (
        <p>{checking ? "Checking…" : "No problems"}</p>
      ) : (
        <ul aria-labelledby={id}>
          {issues.map((issue, i) => (
            <li key={i}>
              {issue.nodeId && known(issue.nodeId) ? (
                <button type="button" className="link-button problem" onClick={() => onPick(issue.nodeId!)}>
                  {labelOf(issue.nodeId)}: {issue.message}
                </button>
              ) : (
                <span className="problem">{issue.message}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorText error={error} />
    </section>
  );
}
