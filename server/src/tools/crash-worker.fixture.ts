/**
 * Test fixture for pool.test.ts: the real tool worker, except that the slug "test.crash"
 * kills the worker thread mid-run, the way an out-of-memory abort or a native crash would.
 */
import type { PoolRequest } from "./pool-protocol";

declare const self: Worker;

self.addEventListener("message", (event: MessageEvent<PoolRequest>) => {
  if (event.data.type === "run" && event.data.slug === "test.crash") process.exit(3);
});
await import("./tool-worker");
