/**
 * The server's (and the tests') host file access for tools that read and write host files
 * themselves (runtime/host-files.ts), over node:fs file handles. Host-side code: it uses Node
 * APIs and is never imported by a tool's run.ts.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { HostFileAccess } from "./host-files";

export const nodeHostFileAccess: HostFileAccess = {
  async openRead(path) {
    const handle = await open(path, "r");
    return {
      read: async (into, position) => (await handle.read(into, 0, into.length, position)).bytesRead,
      close: () => handle.close(),
    };
  },
  readAtSync(path, into, position) {
    const fd = openSync(path, "r");
    try {
      return readSync(fd, into, 0, into.length, position);
    } finally {
      closeSync(fd);
    }
  },
  async create(dir, name) {
    const path = join(dir, name);
    const handle = await open(path, "w");
    let end = 0;
    const file = {
      async write(bytes: Uint8Array, position?: number) {
        const at = position ?? end;
        for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done, bytes.length - done, at + done)).bytesWritten;
        end = Math.max(end, at + bytes.length);
      },
      close: () => handle.close(),
    };
    return { file, path };
  },
};
