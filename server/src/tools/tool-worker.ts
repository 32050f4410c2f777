/**
 * Entry of one server tool worker (a Bun Worker): runs `execute()` from wasm-tools with the
 * WASM read from node_modules, one run at a time (the loop is tool-worker-host.ts). Says "ready"
 * only after its imports have settled: a Bun worker messaged earlier can hang while mupdf
 * initialises.
 */
import { execute, setWasmLocator } from "@vektor/wasm-tools";
import { nodeModulesWasmLocator } from "@vektor/wasm-tools/runtime/node-wasm";
import { prepareTool } from "@vektor/wasm-tools/runtime/prepare";
import { serveToolWorker } from "./tool-worker-host";

setWasmLocator(nodeModulesWasmLocator);
serveToolWorker({ prepare: prepareTool, execute });
