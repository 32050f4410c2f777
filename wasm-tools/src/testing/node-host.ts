/**
 * Test host setup: WASM comes from node_modules through the host locator, host files are read
 * and written with node:fs, and engine-heavy loops start collections with Bun.gc, exactly as
 * the server provides them. Import for its effect at the top of a test file.
 */
import { setGarbageCollector } from "../runtime/engine-garbage";
import { setHostFileAccess } from "../runtime/host-files";
import { nodeHostFileAccess } from "../runtime/node-host-files";
import { nodeModulesWasmLocator } from "../runtime/node-wasm";
import { setWasmLocator } from "../runtime/wasm-source";

setWasmLocator(nodeModulesWasmLocator);
setHostFileAccess(nodeHostFileAccess);
setGarbageCollector(() => Bun.gc(false));
