/**
 * Entry of one server tool worker (a Bun Worker): runs `execute()` from wasm-tools with the
 * WASM read from node_modules, one run at a time. Posts "ready" only after its imports have
 * settled (a Bun worker messaged earlier can hang while mupdf initialises), and "started" once
 * a run's tool and engine are loaded, which is when the pool starts the run's timeout.
 */
import { execute, setWasmLocator } from "@vektor/wasm-tools";
import { nodeModulesWasmLocator } from "@vektor/wasm-tools/runtime/node-wasm";
import { prepareTool } from "@vektor/wasm-tools/runtime/prepare";
import { ToolError } from "@vektor/shared/tools/manifest";
import type { PoolReply, PoolRequest } from "./pool-protocol";

declare const self: Worker;

setWasmLocator(nodeModulesWasmLocator);
const running = new Map<string, AbortController>();

function reply(message: PoolReply, transfer: Transferable[] = []) {
  self.postMessage(message, transfer);
}

async function run(req: Extract<PoolRequest, { type: "run" }>) {
  const controller = new AbortController();
  running.set(req.id, controller);
  try {
    // The engine's cold load (seconds for a fresh worker) stays off the job's clock.
    await prepareTool(req.slug);
    reply({ type: "started", id: req.id });
    const outputs = await execute(req.slug, req.inputs, req.params, {
      signal: controller.signal,
      onProgress: (fraction, message) => reply({ type: "progress", id: req.id, fraction, message }),
    });
    reply({ type: "result", id: req.id, ok: true, outputs }, outputs.map((o) => o.bytes.buffer as ArrayBuffer));
  } catch (err) {
    const error = err instanceof ToolError ? { code: err.code, message: err.message } : { code: "TOOL_FAILED" as const, message: String((err as Error)?.message ?? err) };
    reply({ type: "result", id: req.id, ok: false, error });
  } finally {
    running.delete(req.id);
  }
}

self.onmessage = (event: MessageEvent<PoolRequest>) => {
  const msg = event.data;
  if (msg.type === "run") void run(msg);
  else if (msg.type === "cancel") running.get(msg.id)?.abort();
};

reply({ type: "ready" });
