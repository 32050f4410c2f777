/**
 * The CAD family's WASM (occt-import-js: OpenCascade's STEP, IGES and BREP readers and its
 * mesher): loaded once per worker, on first use, from wherever the host's locator says (bytes on
 * the server, a URL in the browser), else the package's own lookup beside its script. What the
 * library prints goes to a small buffer instead of the console.
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import occtimportjs, { type Occt } from "occt-import-js";
import { errorMessage } from "../runtime/context";
import { lazyOnce, locateWasm, startEmscripten, type WasmModuleRef } from "../runtime/wasm-source";

/** occt-import-js's 7.6 MB binary, beside `occt-import-js/dist/occt-import-js.js`. */
export const OCCT_WASM: WasmModuleRef = { family: "cad", name: "occt-import-js", pkg: "occt-import-js", file: "occt-import-js.wasm" };

const MAX_MESSAGES = 50;
let messages: string[] = [];
const keep = (message: string) => {
  if (messages.length < MAX_MESSAGES) messages.push(String(message));
};

const occt = lazyOnce(async (): Promise<Occt> => {
  try {
    const source = await locateWasm(OCCT_WASM);
    const start = (options: object) => occtimportjs({ ...options, print: keep, printErr: keep });
    return source ? await startEmscripten(source, start) : await start({});
  } catch (err) {
    throw new ToolError("TOOL_FAILED", `Could not load the CAD engine (occt-import-js WASM): ${errorMessage(err)}`);
  }
});

/** The occt-import-js module, initialised once per worker. */
export function loadOcct(): Promise<Occt> {
  return occt.get();
}

/** Forget the current instance (after an abort inside it); the next call loads a fresh one. */
export function discardOcct(): void {
  occt.discard();
}

/** What the library printed since the last call; clears the list. */
export function takeOcctMessages(): string[] {
  const taken = messages;
  messages = [];
  return taken;
}
