/**
 * Steering a run: `Retry failed steps` (on the run's own version, free), `Replay` (the current
 * version with the same inputs, at its charge), `Cancel` (unstarted op steps refunded). Each asks
 * first in a dialog that says what it costs or gives back; then the page follows the run (a
 * replay opens the new run).
 */
import type { Run, Step } from "@vektor/shared/schemas/workflow";
import { isTerminalRun } from "@vektor/shared/schemas/vocab";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useCancelRun, useReplayRun, useRetryRun, useWorkflowEstimate, useWorkflowSettings } from "../../../api/workflows";
import { Dialog } from "../../../components/Dialog";
import { plural } from "../../../components/format";
import { ErrorText } from "../../../components/Guard";

type Asking = "retry" | "replay" | "cancel" | null;

export interface SteeringProps {
  run: Run;
  steps: readonly Step[];
  /** "version 2", or "an earlier version" while the versions load. */
  runVersion: string;
  currentVersion: string;
  currentVersionId: string;
}

export function Steering(props: SteeringProps) {
  const { run, runVersion } = props;
  const [asking, setAsking] = useState<Asking>(null);
  const [said, setSaid] = useState("");
  const ended = isTerminalRun(run.status);
  const close = () => setAsking(null);
  return (
    <div className="run-steering">
      <div className="actions">
        {run.status === "failed" ? (
          <button type="button" onClick={() => (setSaid(""), setAsking("retry"))}>
            Retry failed steps
          </button>
        ) : null}
        {ended ? (
          <button type="button" className="secondary" onClick={() => (setSaid(""), setAsking("replay"))}>
            Replay
          </button>
        ) : (
          <button type="button" className="danger" onClick={() => (setSaid(""), setAsking("cancel"))}>
            Cancel
          </button>
        )}
      </div>
      <p className="hint">
        {run.status === "failed" ? `Retry failed steps: on ${runVersion}, free. ` : ""}
        {ended ? `Replay: on ${props.currentVersion} with the same files, charged anew.` : "Cancel: the steps that have not started give their credits back."}
      </p>
      <p role="status" className="hint">
        {said}
      </p>
      {asking === "retry" ? <RetryDialog {...props} onClose={close} onDone={setSaid} /> : null}
      {asking === "replay" ? <ReplayDialog {...props} onClose={close} /> : null}
      {asking === "cancel" ? <CancelDialog {...props} onClose={close} onDone={setSaid} /> : null}
    </div>
  );
}

type DialogProps = SteeringProps & { onClose: () => void; onDone: (said: string) => void };

function RetryDialog({ run, steps, runVersion, onClose, onDone }: DialogProps) {
  const retry = useRetryRun();
  const again = steps.filter((s) => s.status === "failed" || s.status === "skipped").length;
  return (
    <Dialog title="Retry failed steps?" onClose={onClose}>
      <p>
        The {plural(again, "failed or skipped step")} run again on {runVersion}, the version this run used; the steps that succeeded keep their results. Free: no
        credits are charged.
      </p>
      <ErrorText error={retry.error} />
      <div className="actions">
        <button type="button" data-autofocus disabled={retry.isPending} onClick={() => retry.mutate(run.runId, { onSuccess: () => (onDone("Retrying the failed steps, free."), onClose()) })}>
          Retry on {runVersion}, free
        </button>
      </div>
    </Dialog>
  );
}

function ReplayDialog({ run, currentVersion, currentVersionId, onClose }: Omit<DialogProps, "onDone">) {
  const replay = useReplayRun();
  const estimate = useWorkflowEstimate(run.workflowId, currentVersionId);
  const navigate = useNavigate();
  const charge = estimate.data ? plural(estimate.data.credits, "credit") : null;
  const go = () => replay.mutate(run.runId, { onSuccess: (r) => (onClose(), void navigate({ to: "/workflows/runs/$runId", params: { runId: r.runId } })) });
  return (
    <Dialog title="Replay this run?" onClose={onClose}>
      <p>
        A new run of {currentVersion} (the current version) with the same {plural(run.inputFileIds.length, "input file")}.{" "}
        {charge ? <strong>It costs {charge}.</strong> : estimate.isPending ? "Working out the charge…" : null}
      </p>
      <ErrorText error={estimate.error ?? replay.error} />
      <div className="actions">
        <button type="button" data-autofocus disabled={replay.isPending || !estimate.data} onClick={go}>
          {charge ? `Replay for ${charge}` : "Replay"}
        </button>
      </div>
    </Dialog>
  );
}

/** Op steps that have not started give their per-step credits back (the engine's refund). */
const unstartedOps = (steps: readonly Step[]) => steps.filter((s) => s.status === "pending" && s.type.startsWith("op.") && s.type !== "op.workflow").length;

function CancelDialog({ run, steps, onClose, onDone }: DialogProps) {
  const cancel = useCancelRun();
  const settings = useWorkflowSettings();
  const refund = settings.data ? unstartedOps(steps) * settings.data.perStepCredits : null;
  const go = () => cancel.mutate(run.runId, { onSuccess: (r) => (onDone(`Cancelled; ${plural(r.refundedCredits, "credit")} refunded.`), onClose()) });
  return (
    <Dialog title="Cancel this run?" onClose={onClose}>
      <p>
        Running steps are stopped and the rest are not run. {refund !== null ? <strong>About {plural(refund, "credit")} come back</strong> : null}
        {refund !== null ? " (the steps that have not started)." : null}
      </p>
      <ErrorText error={cancel.error} />
      <div className="actions">
        <button type="button" className="danger" data-autofocus disabled={cancel.isPending} onClick={go}>
          Cancel run
        </button>
      </div>
    </Dialog>
  );
}
