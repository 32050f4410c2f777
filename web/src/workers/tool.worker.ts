/**
 * The browser's tool worker: `ToolWorkerApi` over comlink, running `execute()` from wasm-tools
 * exactly as the server's workers do. WASM comes from the URLs Vite emitted (wasm-urls.ts) unless
 * the host configured another source. Inputs arrive and outputs leave as transferred buffers.
 * It posts `{ type: "ready" }` last, after its imports (and their top-level awaits) settled.
 */
import { ToolError, type ToolOutput } from "@vektor/shared/tools/manifest";
import { execute, listManifests, setWasmLocator, type RunRequest, type RunResult, type ToolWorkerApi, type WasmSource, type WorkerReady } from "@vektor/wasm-tools";
import * as Comlink from "comlink";
import { knownWasm, wasmUrl } from "./wasm-urls";

/** Smallest gap between two progress messages to the host, in ms (the final 1 always goes). */
const PROGRESS_INTERVAL_MS = 50;

const configured = new Map<string, WasmSource>();
const running = new Map<string, AbortController>();

setWasmLocator((ref) => {
  const source = configured.get(ref.name);
  if (source) return source;
  const url = wasmUrl(ref.name);
  if (url) return { url };
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

/** Each output owning exactly its buffer, so transferring one never detaches another (or a WASM heap). */
function ownBuffers(outputs: ToolOutput[]): ToolOutput[] {
  const seen = new Set<ArrayBufferLike>();
  return outputs.map((o) => {
    const whole = o.bytes.byteOffset === 0 && o.bytes.byteLength === o.bytes.buffer.byteLength && o.bytes.buffer instanceof ArrayBuffer;
    const bytes = whole && !seen.has(o.bytes.buffer) ? o.bytes : o.bytes.slice();
    seen.add(bytes.buffer);
    return { ...o, bytes };
  });
}

const api: ToolWorkerApi = {
  async configure(wasm) {
    for (const [name, source] of Object.entries(wasm)) configured.set(name, source);
  },

  async run(request: RunRequest, onProgress) {
    const controller = new AbortController();
    running.set(request.id, controller);
    try {
      const outputs = ownBuffers(await execute(request.slug, request.inputs, request.params, { signal: controller.signal, onProgress: throttled(onProgress) }));
      const result: RunResult = { ok: true, outputs };
      return Comlink.transfer(result, outputs.map((o) => o.bytes.buffer as ArrayBuffer));
    } catch (err) {
      const error = err instanceof ToolError ? { code: err.code, message: err.message } : { code: "TOOL_FAILED" as const, message: String((err as Error)?.message ?? err) };
      return { ok: false, error } satisfies RunResult;
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

Comlink.expose(api);
self.postMessage({ type: "ready" } satisfies WorkerReady);
