/**
 * This device's tool runner: one ToolBridge (the Web Worker behind comlink) for the whole app,
 * and the tools it offers. A worker started before the service worker took control of the page
 * fetches its WASM past the service worker, so nothing would be kept for offline use: once the
 * service worker takes over, an idle worker is let go and the next run starts a controlled one.
 */
import type { ToolInput, ToolManifest, ToolOutput } from "@vektor/shared/tools/manifest";
import { useQuery } from "@tanstack/react-query";
import { ToolBridge, type RunOptions } from "../workers/bridge";

const bridge = new ToolBridge();
let running = 0;

navigator.serviceWorker?.addEventListener("controllerchange", () => {
  if (running === 0 && bridge.alive) bridge.terminate();
});

/** Runs `slug` in the worker (see ToolBridge.run). */
export async function runOnDevice(slug: string, inputs: ToolInput[], params: unknown, options: RunOptions): Promise<ToolOutput[]> {
  running++;
  try {
    return await bridge.run(slug, inputs, params, options);
  } finally {
    running--;
  }
}

/** The tools the worker offers; an error when the worker cannot start here. */
export function useDeviceTools() {
  return useQuery<ToolManifest[]>({ queryKey: ["device-tools"], queryFn: () => bridge.manifests(), staleTime: Infinity, retry: false });
}
