/**
 * The PDF family's WASM (mupdf.js): loaded once per worker, on first use, from wherever the
 * host's locator says (bytes on the server, a URL in the browser), else mupdf's own default.
 * pdf-lib is plain JavaScript and needs no initialisation.
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import { errorMessage } from "../runtime/context";
import { lazyOnce, locateWasm, startEmscripten, type WasmModuleRef } from "../runtime/wasm-source";

/** The mupdf module's type (what `import("mupdf")` yields). */
export type Mupdf = typeof import("mupdf");

/** mupdf's 10 MB binary, shipped beside `mupdf/dist/mupdf.js`. */
export const MUPDF_WASM: WasmModuleRef = { family: "pdf", name: "mupdf", pkg: "mupdf", file: "mupdf-wasm.wasm" };

const MAX_WARNINGS = 50;
let warnings: string[] = [];

/** Set once mupdf.js was evaluated and failed: an ES module evaluates only once, so retrying cannot help. */
let fatal: ToolError | undefined;

const mupdf = lazyOnce(async (): Promise<Mupdf> => {
  if (fatal) throw fatal;
  let imported = false;
  try {
    const source = await locateWasm(MUPDF_WASM);
    // mupdf.js reads its Emscripten options from this global during its top-level await.
    const start = (options: object) => {
      (globalThis as { $libmupdf_wasm_Module?: object }).$libmupdf_wasm_Module = options;
      imported = true;
      return import("mupdf");
    };
    const lib = source ? await startEmscripten(source, start) : await start({});
    const keep = (message: string) => {
      if (warnings.length < MAX_WARNINGS) warnings.push(message);
    };
    lib.setLog({ warning: keep, error: keep });
    return lib;
  } catch (err) {
    const error = new ToolError("TOOL_FAILED", `Could not load the PDF engine (mupdf WASM): ${errorMessage(err)}`);
    if (imported) fatal = error; // this worker cannot load mupdf any more; the host should replace it
    throw error;
  }
});

/** The mupdf module, initialised once per worker. */
export function loadMupdf(): Promise<Mupdf> {
  return mupdf.get();
}

/** Warnings mupdf logged since the last call (repairs, broken objects); clears the list. */
export function takeMupdfWarnings(): string[] {
  const taken = warnings;
  warnings = [];
  return taken;
}
