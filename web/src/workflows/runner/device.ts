/**
 * Running a workflow on this device: the saved graph is planned with the shared planning over
 * the catalog (sub-workflows fetched from the server while online), the person's local files
 * are read into memory, and the runner core (core.ts) runs the plan with the tool worker. The
 * run is kept in this browser (device-runs.ts) as it goes. Nothing is uploaded, nothing charged.
 */
import { candidateFormats } from "@vektor/shared/formats";
import { ServiceError } from "@vektor/shared/errors";
import type { CatalogNode, Graph } from "@vektor/shared/schemas/workflow";
import { catalogKinds } from "@vektor/shared/workflows/catalog-kinds";
import { expandGraph } from "@vektor/shared/workflows/plan";
import { client } from "../../api/client";
import { runOnDevice } from "../../tools/device";
import { runLocal, type AskApproval, type LocalFile, type RunTool } from "./core";
import { saveDeviceRun, type DeviceRun } from "./device-runs";
import { endedRun, progressedRun, refusedRun, startedRun, type RunHeader } from "./record";

export interface DeviceRunRequest {
  workflow: { id: string; name: string; versionId: string | null; graph: Graph };
  catalog: readonly CatalogNode[];
  files: readonly File[];
  askApproval: AskApproval;
  signal?: AbortSignal;
  /** The run as kept, after every change. */
  onUpdate?: (run: DeviceRun) => void;
}

export interface DeviceRunOutcome {
  run: DeviceRun;
  /** The run's outputs, bytes in memory, for the downloads. */
  outputs: LocalFile[];
}

/** A browser File as the runner holds it: its bytes, and the format its type and name say. */
export async function readLocalFile(file: File): Promise<LocalFile> {
  const mime = file.type || "application/octet-stream";
  return { id: crypto.randomUUID(), filename: file.name, mime, size: file.size, format: candidateFormats(file.type, file.name)[0]?.id ?? null, bytes: new Uint8Array(await file.arrayBuffer()) };
}

/**
 * The tool worker as the core calls it, each tool within its manifest's time limit. The worker
 * takes its inputs' buffers (transferred), so it gets copies: a file may go on to other steps,
 * and to the run's outputs.
 */
export function workerTool(timeoutMs: (slug: string) => number | undefined = () => undefined): RunTool {
  return (slug, inputs, params, signal) => runOnDevice(slug, inputs.map((i) => ({ ...i, bytes: i.bytes.slice() })), params, { signal, timeoutMs: timeoutMs(slug) });
}

/** A sub-workflow's graph from the server (null when it cannot be had: offline, gone, unreadable). */
async function fetchGraph(id: string): Promise<Graph | null> {
  try {
    return JSON.parse((await client.workflows.get(id)).graphJson) as Graph;
  } catch {
    return null;
  }
}

/** Keeps the run in IndexedDB, one write after another; a browser that keeps nothing still runs. */
function keeper(onUpdate?: (run: DeviceRun) => void) {
  let chain = Promise.resolve();
  return (run: DeviceRun) => {
    onUpdate?.(run);
    chain = chain.then(() => saveDeviceRun(run)).catch(() => {});
    return chain;
  };
}

export async function runWorkflowOnDevice(req: DeviceRunRequest, runTool: RunTool = workerTool()): Promise<DeviceRunOutcome> {
  const kinds = catalogKinds(req.catalog);
  const titles = new Map(req.catalog.map((e) => [e.type, e.title]));
  const titleOf = (type: string) => titles.get(type) ?? type;
  const keep = keeper(req.onUpdate);
  const header: RunHeader = { id: `dev_${crypto.randomUUID()}`, workflowId: req.workflow.id, workflowName: req.workflow.name, versionId: req.workflow.versionId, createdAt: new Date() };
  const files = await Promise.all(req.files.map(readLocalFile));
  let plan;
  try {
    plan = await expandGraph(req.workflow.graph, kinds, fetchGraph, req.workflow.id);
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    const run = refusedRun(header, files, { code: err.code, message: err.message });
    await keep(run);
    return { run, outputs: [] };
  }
  let run = startedRun(header, plan, files, titleOf);
  void keep(run);
  const result = await runLocal({
    plan,
    kinds,
    files,
    runTool,
    askApproval: req.askApproval,
    startedAt: header.createdAt,
    signal: req.signal,
    onChange: (steps) => void keep((run = progressedRun(run, steps, titleOf))),
  });
  run = endedRun(run, result, titleOf);
  await keep(run);
  return { run, outputs: result.outputs };
}
