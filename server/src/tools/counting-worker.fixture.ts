/**
 * Test fixture for pool.test.ts: a tool worker whose output is how many runs this worker has
 * made, itself included (one byte), so a test tells a fresh worker from a used one. Each run takes
 * `params.ms` (default 0).
 */
import type { PoolReply, PoolRequest } from "./pool-protocol";

declare const self: Worker;
const reply = (message: PoolReply) => self.postMessage(message);
let runs = 0;

self.onmessage = async (event: MessageEvent<PoolRequest>) => {
  const msg = event.data;
  if (msg.type !== "run") return;
  reply({ type: "started", id: msg.id });
  await Bun.sleep((msg.params as { ms?: number } | undefined)?.ms ?? 0);
  reply({ type: "result", id: msg.id, ok: true, ranMs: 1, outputs: [{ name: "runs.bin", mime: "application/octet-stream", bytes: new Uint8Array([++runs]) }] });
};

reply({ type: "ready" });
