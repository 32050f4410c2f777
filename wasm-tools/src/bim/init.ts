/**
 * The BIM family's WASM (web-ifc): loaded once per worker, on first use, from wherever the host's
 * locator says (bytes on the server, a URL in the browser), else web-ifc's own lookup beside its
 * script. Always single-threaded (no SharedArrayBuffer workers), with logging off.
 *
 * web-ifc ships two builds with different binaries: Node-like runtimes (Bun, Node) resolve
 * `web-ifc` to its Node build, which needs `web-ifc-node.wasm`; browsers and browser bundles get
 * the ES module build, which needs `web-ifc.wasm`. So the host is asked for the one that matches.
 *
 * `IfcAPI.Init()` builds the Emscripten options itself and passes only `locateFile`, which in the
 * Node build must be a file path. To hand it a host-provided module anyway, `instantiateWasm`
 * (and silent `print`/`printErr`) are offered on Object.prototype for the synchronous part of
 * `Init()` only: Emscripten reads those options from its plain options object before its first
 * `await`, and no other code can run in between. The hook is removed before `Init()` returns.
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import * as WebIFC from "web-ifc";
import { errorMessage } from "../runtime/context";
import { compileWasm, emscriptenInstantiate, lazyOnce, locateWasm, type WasmModuleRef } from "../runtime/wasm-source";

/** The browser build's binary, beside `web-ifc/web-ifc-api.js`. */
export const WEBIFC_WASM: WasmModuleRef = { family: "bim", name: "web-ifc", pkg: "web-ifc", file: "web-ifc.wasm" };
/** The Node build's binary, beside `web-ifc/web-ifc-api-node.js` (what Bun and Node load). */
export const WEBIFC_NODE_WASM: WasmModuleRef = { family: "bim", name: "web-ifc-node", pkg: "web-ifc", file: "web-ifc-node.wasm" };

/** The web-ifc module namespace (IfcAPI, type codes, schema names). */
export type WebIfc = typeof WebIFC;

/** True where `import "web-ifc"` resolves to the Node build: the same test its Emscripten glue makes. */
function isNodeLike(): boolean {
  const host = (globalThis as { process?: { versions?: { node?: unknown }; type?: unknown } }).process;
  return typeof host?.versions?.node === "string" && host.type !== "renderer";
}

/** The binary this runtime's build of web-ifc needs. */
export function webIfcWasmRef(): WasmModuleRef {
  return isNodeLike() ? WEBIFC_NODE_WASM : WEBIFC_WASM;
}

const HOOKS = ["instantiateWasm", "print", "printErr"] as const;

/** Runs `init` with Emscripten options offered on Object.prototype, removing them before returning. */
function withEmscriptenOptions<T>(options: Record<(typeof HOOKS)[number], unknown>, init: () => T): T {
  const proto = Object.prototype as Record<string, unknown>;
  if (HOOKS.some((key) => Object.prototype.hasOwnProperty.call(proto, key))) throw new Error("Object.prototype already has Emscripten options");
  for (const key of HOOKS) Object.defineProperty(proto, key, { value: options[key], configurable: true, writable: true, enumerable: false });
  try {
    return init();
  } finally {
    for (const key of HOOKS) delete proto[key];
  }
}

const api = lazyOnce(async (): Promise<InstanceType<WebIfc["IfcAPI"]>> => {
  try {
    const ifc = new WebIFC.IfcAPI();
    const ref = webIfcWasmRef();
    const source = await locateWasm(ref);
    if (source) {
      const module = await compileWasm(source);
      let used = false;
      let fail: (err: unknown) => void = () => {};
      const failed = new Promise<never>((_, reject) => {
        fail = reject;
      });
      const { instantiateWasm } = emscriptenInstantiate(module, (err) => fail(err));
      const silent = () => {};
      const started = withEmscriptenOptions(
        {
          instantiateWasm: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
            used = true;
            return instantiateWasm(imports, receive);
          },
          print: silent,
          printErr: silent,
        },
        () => ifc.Init(undefined, true),
      );
      await Promise.race([started, failed]);
      if (!used) throw new Error(`this web-ifc build did not take the host's ${ref.file}`);
    } else {
      await ifc.Init(undefined, true);
    }
    ifc.SetLogLevel(WebIFC.LogLevel.LOG_LEVEL_OFF);
    return ifc;
  } catch (err) {
    throw new ToolError("TOOL_FAILED", `Could not load the IFC engine (web-ifc WASM): ${errorMessage(err)}`);
  }
});

/** The IfcAPI, initialised once per worker. */
export function loadIfcApi(): Promise<InstanceType<WebIfc["IfcAPI"]>> {
  return api.get();
}

/** Forget the current instance (after an abort inside it); the next call loads a fresh one. */
export function discardIfcApi(): void {
  api.discard();
}

export { WebIFC };
