/**
 * Running a workflow on this device: the saved graph is planned with the shared planning over
 * the catalog (sub-workflows fetched from the server while online), the person's local files
 * are read into memory, and the runner core (core.ts) runs the plan with the tool worker. The
 * run is kept in this browser (device-runs.ts) as it goes. Nothing is uploaded, nothing charged.
 * The files stay Blobs throughout (core.ts): the picked Files are never read into the page, each
 * tool reads its inputs in the worker (piece by piece where it streams), and outputs become Blobs.
 */
import { candidateFormats } from "@vektor/shared/formats";
import { ServiceError } from "@vektor/shared/errors";
import type { CatalogNode, Graph } from "@vektor/shared/schemas/workflow";
import { catalogKinds } from "@vektor/shared/workflows/catalog-kinds";
import { expandGraph } from "@vektor/shared/workflows/plan";
import { client } from "../../api/client";
import { runOnDevice } from "../../tools/device";
import { localFile, runLocal, type AskApproval, type LocalFile, type RunTool } from "./core";
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
  /** The run's outputs, as Blobs, for the downloads. */
  outputs: LocalFile[];
}

/** A browser File as the runner holds it: the File itself, and the format its type and name say. */
export function pickedFile(file: File): LocalFile {
  return localFile(file.name, file.type || "application/octet-stream", file, candidateFormats(file.type, file.name)[0]?.id ?? null);
}

/**
 * The tool worker as the core calls it, each tool within its manifest's time limit. Each input
 * is a Blob with fresh head bytes (core.ts), which the worker may take (transferred).
 */
export function workerTool(timeoutMs: (slug: string) => number | undefined = () => undefined): RunTool {
  return (slug, inputs, params, signal) => runOnDevice(slug, inputs, params, { signal, timeoutMs: timeoutMs(slug) });
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
  const files = req.files.map(pickedFile);
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
