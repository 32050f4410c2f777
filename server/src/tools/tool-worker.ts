/**
 * Entry of one server tool worker (a Bun Worker): runs `execute()` from wasm-tools with the
 * WASM read from node_modules, one run at a time (the loop is tool-worker-host.ts). Says "ready"
 * only after its imports have settled: a Bun worker messaged earlier can hang while mupdf
 * initialises.
 */
import { execute, setGarbageCollector, setHostFileAccess, setWasmLocator } from "@vektor/wasm-tools";
import { nodeHostFileAccess } from "@vektor/wasm-tools/runtime/node-host-files";
import { nodeModulesWasmLocator } from "@vektor/wasm-tools/runtime/node-wasm";
import { prepareTool } from "@vektor/wasm-tools/runtime/prepare";
import { serveToolWorker } from "./tool-worker-host";

setWasmLocator(nodeModulesWasmLocator);
// Tools that read and write host files themselves (the point clouds) do it through node:fs.
setHostFileAccess(nodeHostFileAccess);
// Loops through an engine (web-ifc) start a collection now and then: JSC alone lets their garbage grow with the model.
setGarbageCollector(() => Bun.gc(false));
serveToolWorker({ prepare: prepareTool, execute });
