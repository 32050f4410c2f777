/**
 * Test worker for stop-cell.test.ts: reads a piece of `path` over and over, each read a host
 * call of `cell` (as host-fs.ts reads), or, with `gated` false, the same reads without the cell.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { asHostCall } from "./stop-cell";

const piece = new Uint8Array(64 * 1024);

function readPiece(path: string): void {
  const fd = openSync(path, "r");
  try {
    readSync(fd, piece, 0, piece.length, 0);
  } finally {
    closeSync(fd);
  }
}

self.onmessage = (event: MessageEvent<{ path: string; cell: Int32Array; gated: boolean }>) => {
  const { path, cell, gated } = event.data;
  postMessage("reading");
  for (;;) {
    if (!gated) readPiece(path);
    else
      asHostCall(
        cell,
        () => readPiece(path),
        () => {
          throw new Error("stopped");
        },
      );
  }
};
