/**
 * Test fixture for pool.test.ts: a tool worker whose engine takes 600 ms to load before each
 * run ("test.slow-start"), or never loads ("test.hang-start"); the run itself takes 20 ms.
 */
import type { PoolReply, PoolRequest } from "./pool-protocol";

declare const self: Worker;
const reply = (message: PoolReply) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<PoolRequest>) => {
  const msg = event.data;
  if (msg.type !== "run" || msg.slug === "test.hang-start") return;
  await Bun.sleep(600);
  reply({ type: "started", id: msg.id });
  await Bun.sleep(20);
  reply({ type: "result", id: msg.id, ok: true, outputs: [{ name: "out.txt", mime: "text/plain", bytes: new Uint8Array([1]) }] });
};

reply({ type: "ready" });
