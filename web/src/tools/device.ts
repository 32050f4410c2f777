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

/** How much of a file's start goes with it as bytes: enough to tell its format (the server's job files give as much). */
const HEAD_BYTES = 64 * 1024;

/**
 * A picked file as a tool input: the File itself (ToolInput.blob), its size and its first bytes,
 * not a copy of it in this page's memory. The worker mounts it for a tool that streams (the GIS
 * tools read it piece by piece through WORKERFS) and reads it whole there for any other.
 */
export async function blobInput(name: string, blob: Blob): Promise<ToolInput> {
  return { name, mime: blob.type || undefined, bytes: new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer()), blob, size: blob.size };
}

/** Runs `slug` in the worker (see ToolBridge.run). */
export function runOnDevice(slug: string, inputs: ToolInput[], params: unknown, options: RunOptions): Promise<ToolOutput[]> {
  return afterCall(bridge.run(slug, inputs, params, options));
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
