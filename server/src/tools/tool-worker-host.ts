/**
 * The message loop of a server tool worker (a Bun Worker), apart from which tools it runs, so a
 * test worker with a stand-in tool goes through the same replies, transfers and errors as the
 * real one (tool-worker.ts). Posts "started" once a run's tool and engine are loaded, which is
 * when the pool starts the run's timeout.
 */
import type { RunContext, ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { packError, packOutputs } from "@vektor/wasm-tools";
import { setThreadLedger } from "@vektor/wasm-tools/runtime/file-ledger";
import type { PoolReply, PoolRequest } from "./pool-protocol";
import { stageOutputs } from "./staged-outputs";

declare const self: Worker;

export interface ToolRunner {
  /** Loads what `slug` needs (never throws: the run reports a failure itself). */
  prepare(slug: string): Promise<void>;
  execute(slug: string, inputs: ToolInput[], params: unknown, ctx: Partial<RunContext>): Promise<ToolOutput[]>;
}

function reply(message: PoolReply, transfer: Transferable[] = []) {
  self.postMessage(message, transfer);
}

/** Serves runs for the pool, one at a time, and posts "ready" (call it after the imports settled). */
export function serveToolWorker(runner: ToolRunner): void {
  const running = new Map<string, AbortController>();
  /** Tools whose module and engine this worker has loaded: a run of one of them starts at once. */
  const prepared = new Set<string>();

  async function run(req: Extract<PoolRequest, { type: "run" }>) {
    const controller = new AbortController();
    running.set(req.id, controller);
    setThreadLedger(req.ledger);
    try {
      // The engine's cold load (seconds for a fresh worker) stays off the job's clock.
      if (!prepared.has(req.slug)) {
        await runner.prepare(req.slug);
        prepared.add(req.slug);
      }
      reply({ type: "started", id: req.id });
      const startedAt = performance.now();
      const outputs = await runner.execute(req.slug, req.inputs, req.params, {
        signal: controller.signal,
        outputDir: req.outputDir,
        onProgress: (fraction, message) => reply({ type: "progress", id: req.id, fraction, message }),
      });
      // The tool's own run ends here: writing its outputs down is the job's work, not the tool's.
      const ranMs = performance.now() - startedAt;
      const { result, transfer } = packOutputs(req.staging ? stageOutputs(req.staging, outputs) : outputs);
      reply({ type: "result", id: req.id, ...result, ranMs }, transfer);
    } catch (err) {
      reply({ type: "result", id: req.id, ...packError(err) });
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
}
