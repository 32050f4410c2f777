/**
 * The browser's tool worker: `ToolWorkerApi` over comlink, running `execute()` from wasm-tools
 * exactly as the server's workers do. WASM comes from the URLs Vite emitted (wasm-urls.ts), fetched
 * with its progress told to the page (downloads.ts), unless the host configured another source. Inputs arrive and outputs leave as transferred buffers;
 * an input may come as the picked File itself (ToolInput.blob), which execute() mounts or reads here,
 * and an output as a File on disk (ToolOutput.blob, written in the page's OPFS folder: output-folders.ts).
 * It posts `{ type: "ready" }` last, after its imports (and their top-level awaits) settled.
 */
import { execute, listManifests, packError, packOutputs, setWasmLocator, type RunRequest, type ToolWorkerApi, type WasmSource, type WorkerReady } from "@vektor/wasm-tools";
import * as Comlink from "comlink";
import { download } from "./downloads";
import { removeRunFolder, runFolder, sweepOutputFolders } from "./output-folders";
import { knownWasm, wasmUrl } from "./wasm-urls";

/** Smallest gap between two progress messages to the host, in ms (the final 1 always goes). */
const PROGRESS_INTERVAL_MS = 50;

const configured = new Map<string, WasmSource>();
const running = new Map<string, AbortController>();

setWasmLocator((ref) => {
  const source = configured.get(ref.name);
  if (source) return source;
  const url = wasmUrl(ref.name);
  // Fetched here rather than by URL, so the page hears how the download goes (downloads.ts).
  if (url) return download(url, ref.name, (message) => self.postMessage(message)).then((bytes) => ({ bytes }));
  console.warn(`tool worker: no bundled URL for WASM "${ref.name}" (${ref.pkg}/${ref.file}); known: ${knownWasm().join(", ") || "none"}`);
  return undefined;
});

/** Throttles `report` so a tight loop does not flood the message channel. */
function throttled(report: ((fraction: number, message?: string) => void) | undefined) {
  let last = 0;
  return (fraction: number, message?: string) => {
    const now = Date.now();
    if (!report || (fraction < 1 && now - last < PROGRESS_INTERVAL_MS)) return;
    last = now;
    try {
      void Promise.resolve(report(fraction, message)).catch(() => {});
    } catch {
      // the host released the callback (the run was abandoned): nobody is listening
    }
  };
}

const api: ToolWorkerApi = {
  async configure(wasm) {
    for (const [name, source] of Object.entries(wasm)) configured.set(name, source);
  },

  async run(request: RunRequest, onProgress) {
    const controller = new AbortController();
    running.set(request.id, controller);
    // Tools that can write their outputs to disk do so here, and return Files read from there (output-folders.ts).
    const outputFolder = await runFolder(request.outputSession, request.id);
    try {
      const outputs = await execute(request.slug, request.inputs, request.params, { signal: controller.signal, onProgress: throttled(onProgress), outputFolder });
      if (outputFolder && !outputs.some((o) => o.blob)) await removeRunFolder(request.outputSession, request.id);
      const { result, transfer } = packOutputs(outputs);
      return Comlink.transfer(result, transfer);
    } catch (err) {
      if (outputFolder) await removeRunFolder(request.outputSession, request.id);
      return packError(err);
    } finally {
      running.delete(request.id);
      // Close the channel comlink opened for the host's progress callback.
      (onProgress as Partial<Comlink.Remote<() => void>> | undefined)?.[Comlink.releaseProxy]?.();
    }
  },

  async cancel(id) {
    running.get(id)?.abort();
  },

  async manifests() {
    return listManifests();
  },
};

// Outputs of pages that are gone; not awaited: the first run need not wait for it.
void sweepOutputFolders();

Comlink.expose(api);
self.postMessage({ type: "ready" } satisfies WorkerReady);
