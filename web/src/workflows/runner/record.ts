/** What is kept of a run made on this device (device-runs.ts): its steps and outputs by name, never bytes. */
import type { RunPlan } from "@vektor/shared/workflows/plan";
import type { LocalFile, LocalRunResult, LocalStep, StepError } from "./core";
import type { DeviceFile, DeviceRun, DeviceRunStep } from "./device-runs";

export interface RunHeader {
  id: string;
  workflowId: string;
  workflowName: string;
  versionId: string | null;
  createdAt: Date;
}

const fileOf = (f: Pick<LocalFile, "filename" | "size" | "format">): DeviceFile => ({ name: f.filename, size: f.size, format: f.format });
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function stepOf(s: LocalStep, titleOf: (type: string) => string): DeviceRunStep {
  return { nodeId: s.nodeId, type: s.type, title: titleOf(s.type), parentNodeId: s.parentNodeId, status: s.status, startedAt: iso(s.startedAt), finishedAt: iso(s.finishedAt), error: s.error, outputs: s.outputs.map((f) => f.filename), logs: [...s.logs] };
}

/** A run that has started: every step of its plan pending. */
export function startedRun(header: RunHeader, plan: RunPlan, inputs: readonly LocalFile[], titleOf: (type: string) => string): DeviceRun {
  const steps = plan.nodes.map((n): DeviceRunStep => ({ nodeId: n.id, type: n.type, title: titleOf(n.type), parentNodeId: n.parentId, status: "pending", startedAt: null, finishedAt: null, error: null, outputs: [], logs: [] }));
  return { ...headerOf(header), status: "running", finishedAt: null, error: null, inputs: inputs.map(fileOf), outputs: [], steps };
}

/** A run that could not start (its graph could not be planned on this device). */
export function refusedRun(header: RunHeader, inputs: readonly LocalFile[], error: StepError): DeviceRun {
  return { ...headerOf(header), status: "failed", finishedAt: new Date().toISOString(), error, inputs: inputs.map(fileOf), outputs: [], steps: [] };
}

/** The run with its steps as they are now; `waiting_approval` while a step waits for the person. */
export function progressedRun(run: DeviceRun, steps: readonly LocalStep[], titleOf: (type: string) => string): DeviceRun {
  const waiting = steps.some((s) => s.status === "waiting_approval");
  return { ...run, status: waiting ? "waiting_approval" : "running", steps: steps.map((s) => stepOf(s, titleOf)) };
}

/** The run at its end. */
export function endedRun(run: DeviceRun, result: LocalRunResult, titleOf: (type: string) => string, at = new Date()): DeviceRun {
  return { ...run, status: result.status, error: result.error, finishedAt: at.toISOString(), outputs: result.outputs.map(fileOf), steps: result.steps.map((s) => stepOf(s, titleOf)) };
}

function headerOf(h: RunHeader): Pick<DeviceRun, "id" | "engine" | "workflowId" | "workflowName" | "versionId" | "createdAt"> {
  return { id: h.id, engine: "device", workflowId: h.workflowId, workflowName: h.workflowName, versionId: h.versionId, createdAt: h.createdAt.toISOString() };
}
