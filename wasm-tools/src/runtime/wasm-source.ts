/**
 * Where a family's WASM binary comes from is the host's decision, not the tool's: the browser
 * hands out URLs its bundler emitted, the server reads the bytes from node_modules. A family's
 * `init.ts` asks `locateWasm(ref)` once, on first use; with no locator (or `undefined` from it)
 * the library's own default lookup applies.
 */
import type { ToolFamily } from "@vektor/shared/tools/manifest";
import type { ImportsAdapter } from "./emscripten-invokes";

/** A WASM binary a family needs: the package that ships it and its file name beside the package's entry module. */
export interface WasmModuleRef {
  family: ToolFamily;
  /** Short name, e.g. `mupdf`, `laz-perf`. */
  name: string;
  /** Package specifier whose resolved entry module sits in the same folder as `file`. */
  pkg: string;
  file: string;
}

/**
 * Bytes (server, tests), a URL (browser: compiled while it downloads), or a module the host
 * compiled already (a server pool can compile once and post the module to each worker).
 */
export type WasmSource = { bytes: Uint8Array } | { url: string } | { module: WebAssembly.Module };

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

/**
 * Compiles a host-provided source. Doing it here, not inside the Emscripten glue, means a bad or
 * missing binary is an ordinary rejected promise instead of an abort inside the glue (which
 * escapes as an unhandled rejection and can take the process down).
 */
export async function compileWasm(source: WasmSource): Promise<WebAssembly.Module> {
  if ("module" in source) return source.module;
  if ("bytes" in source) return WebAssembly.compile(source.bytes as Uint8Array<ArrayBuffer>);
  if (typeof WebAssembly.compileStreaming === "function") {
    try {
      return await WebAssembly.compileStreaming(fetch(source.url));
    } catch {
      // a server without the application/wasm content type, or a file: URL: fall back to bytes
    }
  }
  const response = await fetch(source.url);
  if (!response.ok) throw new Error(`${source.url}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * Emscripten options that instantiate an already compiled `module`. Emscripten waits forever if
 * `instantiateWasm` never calls back, so a failure is reported to `onFailure` instead.
 */
export function emscriptenInstantiate(
  module: WebAssembly.Module,
  onFailure: (err: unknown) => void,
  adapt?: ImportsAdapter,
): { instantiateWasm: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object } {
  return {
    instantiateWasm(imports, receive) {
      let ready: ((instance: WebAssembly.Instance) => void) | undefined;
      try {
        ready = adapt?.(imports);
      } catch (err) {
        onFailure(err);
        return {};
      }
      WebAssembly.instantiate(module, imports).then((instance) => {
        try {
          ready?.(instance);
        } catch (err) {
          onFailure(err);
          return;
        }
        receive(instance, module);
      }, onFailure);
      return {};
    },
  };
}

/**
 * Loads an Emscripten module from a host source: compile first, then `start(options)` with
 * `instantiateWasm` set (its imports changed by `adapt` first, if given), settling with whichever
 * comes first, the module or a failure.
 */
export async function startEmscripten<T>(source: WasmSource, start: (options: object) => Promise<T>, adapt?: ImportsAdapter): Promise<T> {
  const module = await compileWasm(source);
  let fail: (err: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  return Promise.race([start(emscriptenInstantiate(module, fail, adapt)), failed]);
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
