/**
 * The point-cloud family's WASM (laz-perf, LAZ decoding): loaded once per worker, on first use,
 * from wherever the host's locator says (bytes on the server, a URL in the browser), else the
 * package's own default. An instance that hit a decoder error is discarded: Emscripten builds
 * without exception support leave their heap in an unknown state after a C++ throw.
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import { createLazPerf } from "laz-perf";
import { errorMessage } from "../runtime/context";
import { lazyOnce, locateWasm, startEmscripten, type WasmModuleRef } from "../runtime/wasm-source";

/** laz-perf's shipped binary, beside its entry module (lib/node or lib/web). */
export const LAZPERF_WASM: WasmModuleRef = { family: "pointcloud", name: "laz-perf", pkg: "laz-perf", file: "laz-perf.wasm" };

/** The slice of laz-perf's Emscripten module the tools use. */
export interface LazPerf {
  HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(pointer: number): void;
  /** Reads a whole LAZ file in the heap; its reads stay inside the chunk the table bounds. */
  LASZip: new () => {
    open(pointer: number, length: number): void;
    getPoint(pointer: number): void;
    getCount(): number;
    delete(): void;
  };
}

type Factory = (options: object) => Promise<LazPerf>;

/** What a Node-like host's `process` offers for undoing listeners (absent in browsers). */
interface ListenerHost {
  listeners(event: string): unknown[];
  removeListener(event: string, listener: (...args: unknown[]) => void): void;
}
const PROCESS_EVENTS = ["uncaughtException", "unhandledRejection"];

const lazperf = lazyOnce(async (): Promise<LazPerf> => {
  // laz-perf's Node build installs process-wide handlers that rethrow every uncaught error and
  // unhandled rejection; a tool must not change how its host process fails, so they are removed.
  const host = (globalThis as { process?: Partial<ListenerHost> }).process;
  const canUndo = typeof host?.listeners === "function" && typeof host.removeListener === "function";
  const before = canUndo ? PROCESS_EVENTS.map((event) => new Set((host as ListenerHost).listeners(event))) : [];
  try {
    const source = await locateWasm(LAZPERF_WASM);
    const start = (options: object) => (createLazPerf as unknown as Factory)({ ...options, print: () => {}, printErr: () => {} });
    return source ? await startEmscripten(source, start) : await start({});
  } catch (err) {
    throw new ToolError("TOOL_FAILED", `Could not load the LAZ decoder (laz-perf WASM): ${errorMessage(err)}`);
  } finally {
    if (canUndo) {
      const h = host as ListenerHost;
      PROCESS_EVENTS.forEach((event, i) => {
        for (const listener of h.listeners(event)) {
          if (!before[i].has(listener)) h.removeListener(event, listener as (...args: unknown[]) => void);
        }
      });
    }
  }
});

/** The laz-perf module, initialised once per worker. */
export function loadLazPerf(): Promise<LazPerf> {
  return lazperf.get();
}

/** Forget the current instance (after a decoder failure); the next call loads a fresh one. */
export function discardLazPerf(): void {
  lazperf.discard();
}
