/**
 * Where a family's WASM binary comes from is the host's decision, not the tool's: the browser
 * hands out URLs its bundler emitted, the server reads the bytes from node_modules. A family's
 * `init.ts` asks `locateWasm(ref)` once, on first use; with no locator (or `undefined` from it)
 * the library's own default lookup applies.
 */
import type { ToolFamily } from "@vektor/shared/tools/manifest";

/** A WASM binary a family needs: the package that ships it and its file name beside the package's entry module. */
export interface WasmModuleRef {
  family: ToolFamily;
  /** Short name, e.g. `mupdf`, `laz-perf`. */
  name: string;
  /** Package specifier whose resolved entry module sits in the same folder as `file`. */
  pkg: string;
  file: string;
}

/** Bytes (server, tests) or a URL the WASM loader fetches itself (browser: streaming compile). */
export type WasmSource = { bytes: Uint8Array } | { url: string };

/** The host's hook: return where a module comes from, or `undefined` for the library's default. */
export type WasmLocator = (ref: WasmModuleRef) => WasmSource | undefined | Promise<WasmSource | undefined>;

let locator: WasmLocator | undefined;

/** Install the host's locator. Call before the first tool runs: a family already loaded keeps its module. */
export function setWasmLocator(next: WasmLocator | undefined): void {
  locator = next;
}

/** Ask the host where `ref` comes from (used by the families' init.ts). */
export async function locateWasm(ref: WasmModuleRef): Promise<WasmSource | undefined> {
  return locator ? await locator(ref) : undefined;
}

/** The Emscripten module options that make a loader use `source` instead of its own lookup. */
export function emscriptenOptions(source: WasmSource | undefined): { wasmBinary?: Uint8Array; locateFile?: (file: string) => string } {
  if (!source) return {};
  if ("bytes" in source) return { wasmBinary: source.bytes };
  const url = source.url;
  return { locateFile: (file: string) => (file.endsWith(".wasm") ? url : file) };
}

/**
 * Memoise an async loader: one initialisation per worker, retried after a failure, and
 * `discard()` when an instance became unusable (an Emscripten abort poisons its heap).
 */
export function lazyOnce<T>(load: () => Promise<T>): { get: () => Promise<T>; discard: () => void } {
  let pending: Promise<T> | undefined;
  return {
    get() {
      pending ??= load().catch((err: unknown) => {
        pending = undefined;
        throw err;
      });
      return pending;
    },
    discard() {
      pending = undefined;
    },
  };
}
