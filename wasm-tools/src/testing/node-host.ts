/**
 * Test host setup: WASM comes from node_modules through the host locator, exactly as the server
 * will provide it. Import for its effect at the top of a test file.
 */
import { nodeModulesWasmLocator } from "../runtime/node-wasm";
import { setWasmLocator } from "../runtime/wasm-source";

setWasmLocator(nodeModulesWasmLocator);
