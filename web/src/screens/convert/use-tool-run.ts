/**
 * The Convert screen's run: the reducer of tool-run.ts over the app's tool list, settings,
 * network and session, and the run itself on the engine chosen (runs.ts), reported as actions.
 * Object URLs of results this device made are revoked when they are replaced or the screen goes.
 */
import { useEffect, useReducer, type Dispatch } from "react";
import { errorMessage } from "../../api/client";
import { useProcessingConfig } from "../../api/config";
import { useAccount } from "../../api/session";
import { useOnline } from "../../app/online";
import { readParams } from "../../components/params-form";
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
  const plan = deriveRun(state, { tools: catalog.tools, browserMaxBytes: config.browserMaxBytes, cloudEnabled: config.cloudEnabled, online, signedIn });

  useEffect(() => {
    if (catalog.settled) dispatch({ type: "catalog-settled", count: catalog.tools.length });
  }, [catalog.settled, catalog.tools.length]);
  useEffect(() => () => revoke(state.results), [state.results]);

  async function run() {
    const { tool, fields, engine, canRun, blocked } = plan;
    if (!tool || !canRun) return;
    const read = readParams(fields, state.values);
    if (!read.ok) return dispatch({ type: "refused", message: read.message });
    const controller = new AbortController();
    dispatch({ type: "started", running: { controller, title: tool.title, engine } });
    const started = performance.now();
    try {
      const outputs = await (engine === "device" ? runDevice : runServer)({
        tool,
        files: state.files,
        params: read.params,
        signal: controller.signal,
        onProgress: (fraction, message) => dispatch({ type: "progress", fraction, message }),
      });
      dispatch({ type: "finished", results: outputs, ms: performance.now() - started });
      if (engine === "device") keepFamily(tool.family);
    } catch (err) {
      const { code, message } = err instanceof RunFailed ? err : new RunFailed("TOOL_FAILED", errorMessage(err));
      dispatch({ type: "failed", code, message, serverBlocked: blocked.server });
    }
  }

  return { state, plan, dispatch, deviceError: catalog.deviceError, run, cancel: () => state.running?.controller.abort() };
}

function revoke(results: Result[]) {
  for (const r of results) if (r.local) URL.revokeObjectURL(r.href);
}
