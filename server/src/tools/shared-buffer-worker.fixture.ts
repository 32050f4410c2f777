/**
 * Test fixture for pool.test.ts: the real worker loop (tool-worker-host.ts) with a stand-in tool
 * whose two outputs are views of one ArrayBuffer, as a WASM tool's slices of its heap would be.
 */
import { serveToolWorker } from "./tool-worker-host";

serveToolWorker({
  prepare: async () => {},
  execute: async () => {
    const heap = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
    return [
      { name: "a.bin", mime: "application/octet-stream", bytes: heap.subarray(0, 3) },
      { name: "b.bin", mime: "application/octet-stream", bytes: heap.subarray(3) },
    ];
  },
});
