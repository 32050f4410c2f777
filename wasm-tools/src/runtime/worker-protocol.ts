/**
 * The contract between a host (browser bridge or server pool) and a tool worker, so both hosts
 * and the worker entry agree on it before the pools exist. The worker exposes `ToolWorkerApi`
 * (comlink in the browser; the same shape over postMessage in Bun workers). A worker must post
 * `WorkerReady` only after its module's top-level awaits have settled: a Bun worker that loads
 * mupdf and is messaged earlier hangs.
 */
import type { ToolErrorCode, ToolInput, ToolManifest, ToolOutput } from "@vektor/shared/tools/manifest";
import type { WasmSource } from "./wasm-source";

/** First message from a worker: its modules are evaluated and it can take calls. */
export interface WorkerReady {
  type: "ready";
}

/** What a worker exposes. Inputs' and outputs' buffers are transferred, not copied. */
export interface ToolWorkerApi {
  /** Tell the worker where each WASM module comes from (keyed by `WasmModuleRef.name`); before the first run. */
  configure(wasm: Record<string, WasmSource>): Promise<void>;
  /** `execute()` inside the worker; progress comes back through `onProgress`. */
  run(request: RunRequest, onProgress?: (fraction: number, message?: string) => void): Promise<RunResult>;
  /** Abort the run `id` (the worker's AbortController for it). */
  cancel(id: string): Promise<void>;
  /** Manifests the worker knows (a cheap liveness check). */
  manifests(): Promise<ToolManifest[]>;
}

/** One tool call. */
export interface RunRequest {
  id: string;
  slug: string;
  inputs: ToolInput[];
  params: unknown;
  /**
   * The browser's page: its folder of tool outputs in the Origin Private File System, in which the
   * worker makes this run's folder for the tools that write their outputs to disk there
   * (RunContext.outputFolder). Absent (the server, a browser without OPFS): outputs come as bytes.
   */
  outputSession?: string;
}

/** A call's outcome: outputs, or a typed error (never a thrown object across the boundary). */
export type RunResult = { ok: true; outputs: ToolOutput[] } | { ok: false; error: { code: ToolErrorCode; message: string } };
