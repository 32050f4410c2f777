/**
 * @vektor/wasm-tools: the tool catalog (manifests + lazy run modules) and the runtime that
 * executes a tool the same way in a browser worker and a server worker.
 */
export { checkRegistry, getTool, listManifests, TOOL_ENTRIES, type ToolEntry } from "./registry";
export { execute, executeEntry, type ExecuteContext } from "./runtime/execute";
export { ownBuffers, packError, packOutputs } from "./runtime/pack";
export { checkParams, validateParams, type ParamIssue, type ParamsResult } from "./runtime/params";
export { setWasmLocator, type WasmLocator, type WasmModuleRef, type WasmSource } from "./runtime/wasm-source";
export { setHostFileAccess, type HostFileAccess } from "./runtime/host-files";
export { setGarbageCollector } from "./runtime/engine-garbage";
export type { RunRequest, RunResult, ToolWorkerApi, WorkerReady } from "./runtime/worker-protocol";
