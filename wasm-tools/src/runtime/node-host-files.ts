/**
 * The server's (and the tests') host file access for tools that read and write host files
 * themselves (runtime/host-files.ts), over node:fs. Every read and write opens the file, does its
 * piece and closes it, as one host call of the thread's file ledger (file-ledger.ts): the pool
 * ends a run that times out or is cancelled by terminating its worker thread, and a descriptor
 * left open there would stay the server process's for good (with the job folder's disk space, the
 * file unlinked but open). An open and a close cost microseconds; the pieces are a megabyte or
 * more. Host-side code: it uses Node APIs and is never imported by a tool's run.ts.
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { open, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { asHostCall, asHostCallAsync, threadLedgers } from "./file-ledger";
import type { HostFileAccess } from "./host-files";

const refuse = (): never => {
  throw new ToolError("CANCELLED", "The run was stopped");
};
/** `call` as one host call of this thread's ledger. */
const hostCall = <T>(call: () => T): T => asHostCall(threadLedgers(), call, refuse);
const hostCallAsync = <T>(call: () => Promise<T>): Promise<T> => asHostCallAsync(threadLedgers(), call, refuse);

export const nodeHostFileAccess: HostFileAccess = {
  async openRead(path) {
    await hostCallAsync(async () => (await open(path, "r")).close()); // a missing file fails here, as an open would
    return {
      read: (into, position) =>
        hostCallAsync(async () => {
          const handle = await open(path, "r");
          try {
            return (await handle.read(into, 0, into.length, position)).bytesRead;
          } finally {
            await handle.close();
          }
        }),
      close: async () => {},
    };
  },
  readAtSync: (path, into, position) =>
    hostCall(() => {
      const fd = openSync(path, "r");
      try {
        return readSync(fd, into, 0, into.length, position);
      } finally {
        closeSync(fd);
      }
    }),
  writeAtSync: (path, bytes, position) =>
    hostCall(() => {
      const fd = openSync(path, "r+");
      try {
        for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
      } finally {
        closeSync(fd);
      }
    }),
  remove: (path) => rm(path, { force: true }),
  async create(dir, name) {
    const path = join(dir, name);
    await hostCallAsync(() => writeFile(path, new Uint8Array(0)));
    let end = 0;
    const file = {
      async write(bytes: Uint8Array, position?: number) {
        const at = position ?? end;
        await hostCallAsync(async () => {
          const handle = await open(path, "r+");
          try {
            for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done, bytes.length - done, at + done)).bytesWritten;
          } finally {
            await handle.close();
          }
        });
        end = Math.max(end, at + bytes.length);
      },
      close: async () => {},
    };
    return { file, path };
  },
};
