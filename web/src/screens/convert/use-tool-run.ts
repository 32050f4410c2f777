/**
 * The Convert screen's run: the reducer of tool-run.ts over the app's tool list, settings,
 * network and session, and the run itself on the engine chosen (runs.ts), reported as actions.
 * Object URLs of results this device made are revoked when they are replaced or the screen goes.
 */
import { useEffect, useReducer, useRef, type Dispatch } from "react";
import { errorMessage } from "../../api/client";
import { useProcessingConfig } from "../../api/config";
import { useAccount } from "../../api/session";
import { useOnline } from "../../app/online";
import { readParams } from "../../components/params-form";
import { clearEngineDownloads } from "../../tools/engine-downloads";
import { deviceMemoryBudget } from "../../tools/memory";
import { useKeepFamily } from "../../tools/offline";
import { useCatalog } from "../../tools/use-catalog";
import { RunFailed, runDevice, runServer, type Result } from "./runs";
import { deriveRun, initialToolRun, toolRun, type RunPlan, type ToolRunAction, type ToolRunState } from "./tool-run";

export interface ToolRun {
  state: ToolRunState;
  plan: RunPlan;
  dispatch: Dispatch<ToolRunAction>;
  /** Why tools cannot run in this browser (the worker did not start), or null. */
  deviceError: unknown;
  run: () => Promise<void>;
  cancel: () => void;
}

export function useToolRun(): ToolRun {
  const catalog = useCatalog();
  const config = useProcessingConfig();
  const signedIn = Boolean(useAccount().data);
  const online = useOnline();
  const keepFamily = useKeepFamily();
  const [state, dispatch] = useReducer(toolRun, undefined, initialToolRun);
  const plan = deriveRun(state, { tools: catalog.tools, browserMaxBytes: config.browserMaxBytes, memoryBudget: deviceMemoryBudget(), cloudEnabled: config.cloudEnabled, online, signedIn });

  useEffect(() => {
    if (catalog.settled) dispatch({ type: "catalog-settled", count: catalog.tools.length });
  }, [catalog.settled, catalog.tools.length]);
  useRevokeReplaced(state.results);

  async function run() {
    const { tool, fields, engine, canRun, blocked, mode } = plan;
    if (!tool || !canRun) return;
    const read = readParams(fields, state.values);
    if (!read.ok) return dispatch({ type: "refused", message: read.message });
    const controller = new AbortController();
    const units = mode === "each" ? state.files.map((f) => [f]) : [state.files];
    dispatch({ type: "started", running: { controller, title: tool.title, engine }, units: units.map(unitName) });
    clearEngineDownloads();
    const started = performance.now();
    let anyDone = false;
    for (const [unit, files] of units.entries()) {
      try {
        const outputs = await (engine === "device" ? runDevice : runServer)({
          tool,
          files,
          params: read.params,
          signal: controller.signal,
          onProgress: (fraction, message) => dispatch({ type: "progress", fraction, message, unit }),
        });
        anyDone = true;
        dispatch({ type: "unit-done", unit, results: mode === "each" ? outputs.map((r) => ({ ...r, source: files[0]!.name })) : outputs });
      } catch (err) {
        const { code, message } = err instanceof RunFailed ? err : new RunFailed("TOOL_FAILED", errorMessage(err));
        // One file of a per-file run failing leaves the others to run; a cancel, or the only unit failing, ends the run.
        if (code === "CANCELLED" || units.length === 1) return dispatch({ type: "failed", code, message, serverBlocked: blocked.server });
        dispatch({ type: "unit-failed", unit, message });
      }
    }
    dispatch({ type: "finished", ms: performance.now() - started });
    if (engine === "device" && anyDone) keepFamily(tool.family);
  }

  return { state, plan, dispatch, deviceError: catalog.deviceError, run, cancel: () => state.running?.controller.abort() };
}

/** A unit's name on screen: its file, or how many files it takes together. */
const unitName = (files: File[]) => (files.length === 1 ? files[0]!.name : `${files.length} files`);

/** Revokes this device's object URLs (and lets their files go) once their results leave the list (a per-file run appends, keeping the earlier ones), and all when the screen goes. */
function useRevokeReplaced(results: Result[]) {
  const shown = useRef<Result[]>([]);
  useEffect(() => {
    const kept = new Set(results.map((r) => r.href));
    revoke(shown.current.filter((r) => !kept.has(r.href)));
    shown.current = results;
  }, [results]);
  useEffect(() => () => revoke(shown.current), []);
}

function revoke(results: Result[]) {
  for (const r of results) {
    if (r.local) URL.revokeObjectURL(r.href);
    r.release?.();
  }
}
