/**
 * This device's tool runner: one ToolBridge (the Web Worker behind comlink) for the whole app,
 * and the tools it offers. A worker started before the service worker took control of the page
 * fetches its WASM past the service worker, so nothing would be kept for offline use: once the
 * service worker takes over, an idle worker is let go and the next run starts a controlled one.
 */
import type { ToolInput, ToolManifest, ToolOutput } from "@vektor/shared/tools/manifest";
import { useQuery } from "@tanstack/react-query";
import { ToolBridge, type RunOptions } from "../workers/bridge";
import { reportEngineDownload } from "./engine-downloads";

export { blobInput } from "./blob-input";

const bridge = new ToolBridge({ onEngineDownload: reportEngineDownload });
/** Set when the service worker took over while the worker was busy: let it go once it is idle. */
let retire = false;

function retireWhenIdle(): void {
  retire = bridge.alive && bridge.busy;
  // Any call counts, the manifests too: terminating the worker under them fails the catalog for good.
  if (!retire && bridge.alive) bridge.terminate();
}

navigator.serviceWorker?.addEventListener("controllerchange", retireWhenIdle);

async function afterCall<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } finally {
    if (retire) queueMicrotask(retireWhenIdle);
  }
}

/** Runs `slug` in the worker (see ToolBridge.run). */
export function runOnDevice(slug: string, inputs: ToolInput[], params: unknown, options: RunOptions): Promise<ToolOutput[]> {
  return afterCall(bridge.run(slug, inputs, params, options));
}

/** The page no longer needs a tool's output (see ToolBridge.release): a File on disk may go. */
export function releaseOutput(output: ToolOutput): void {
  bridge.release(output);
}

/** The tools the worker offers; an error when the worker cannot start here. */
export function useDeviceTools() {
  return useQuery<ToolManifest[]>({
    queryKey: ["device-tools"],
    queryFn: () => afterCall(bridge.manifests()),
    staleTime: Infinity,
    // A worker shut down under the call (CANCELLED) is no verdict on this browser: ask a fresh one.
    retry: (failures, err) => failures < 2 && (err as { code?: string }).code === "CANCELLED",
  });
}
