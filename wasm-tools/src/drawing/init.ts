/**
 * The drawing family's WASM (LibreDWG 0.13 through @mlightcad/libredwg-web): compiled once per
 * worker from wherever the host's locator says, then instantiated fresh for every DWG read.
 * A fresh instance per file is deliberate: after one drawing has been read and converted, the
 * library's next read in the same instance aborts ("call_indirect to a signature that does not
 * match"), and an abort poisons the heap. Instantiating the compiled module costs well under a
 * second and leaves no state behind, so one bad file cannot affect the next job.
 */
import { createModule, LibreDwg, type LibreDwgEx } from "@mlightcad/libredwg-web";
import { ToolError } from "@vektor/shared/tools/manifest";
import { errorMessage } from "../runtime/context";
import { compileWasm, lazyOnce, locateWasm, type WasmModuleRef } from "../runtime/wasm-source";

/** LibreDWG's 9.5 MB binary; the package's entry is dist/, the binary sits in wasm/. */
export const LIBREDWG_WASM: WasmModuleRef = { family: "drawing", name: "libredwg", pkg: "@mlightcad/libredwg-web", file: "../wasm/libredwg-web.wasm" };

const compiled = lazyOnce(async (): Promise<WebAssembly.Module | undefined> => {
  const source = await locateWasm(LIBREDWG_WASM);
  return source ? compileWasm(source) : undefined;
});

/** Compiles LibreDWG once per worker (a host's warm-up); undefined without a locator. */
export function loadLibreDwgModule(): Promise<WebAssembly.Module | undefined> {
  return compiled.get();
}

const MAX_MESSAGES = 50;

/** A LibreDWG instance and what it printed while it worked. */
export interface DwgEngine {
  lib: LibreDwgEx;
  messages: string[];
}

/** A new LibreDWG instance on the compiled module (or the package's own lookup without a locator). */
export async function freshLibreDwg(): Promise<DwgEngine> {
  const messages: string[] = [];
  const keep = (message: unknown) => {
    if (messages.length < MAX_MESSAGES) messages.push(String(message));
  };
  try {
    const module = await compiled.get();
    // This Emscripten build awaits instantiateWasm's result for its exports, so it is returned, not only passed to receive().
    const instantiateWasm = module
      ? (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => unknown) =>
          WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module))
      : undefined;
    const wasm = await createModule({ print: keep, printErr: keep, ...(instantiateWasm ? { instantiateWasm } : {}) } as never);
    return { lib: LibreDwg.createByWasmInstance(wasm), messages };
  } catch (err) {
    throw new ToolError("TOOL_FAILED", `Could not load the drawing engine (LibreDWG WASM): ${errorMessage(err)}`);
  }
}
