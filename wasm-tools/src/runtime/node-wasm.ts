/**
 * The server's (and the tests') WASM locator: reads each binary from the package installed in
 * node_modules, so a Bun or Node worker needs no network and no bundler. Host-side code: it uses
 * Node APIs and is never imported by a tool's run.ts.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { WasmLocator, WasmModuleRef } from "./wasm-source";

/** Absolute path of a module's WASM file inside node_modules. */
export function nodeWasmPath(ref: WasmModuleRef): string {
  const entry = fileURLToPath(import.meta.resolve(ref.pkg));
  return join(dirname(entry), ref.file);
}

/** Reads `ref`'s bytes from node_modules. */
export const nodeModulesWasmLocator: WasmLocator = async (ref) => ({ bytes: new Uint8Array(await readFile(nodeWasmPath(ref))) });
