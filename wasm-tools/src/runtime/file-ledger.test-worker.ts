/**
 * Test worker for file-ledger.test.ts: reads a piece of `path` over and over through the server's
 * host file access (node-host-files.ts), with `ledger` as this thread's file ledger, or, without
 * one, the same reads uncounted (the control).
 */
import { setThreadLedger } from "./file-ledger";
import { nodeHostFileAccess } from "./node-host-files";

const piece = new Uint8Array(64 * 1024);

self.onmessage = (event: MessageEvent<{ path: string; ledger?: Int32Array }>) => {
  const { path, ledger } = event.data;
  setThreadLedger(ledger);
  postMessage("reading");
  for (;;) nodeHostFileAccess.readAtSync!(path, piece, 0);
};
