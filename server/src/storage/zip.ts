/**
 * STORE-mode ZIPs of stored files (yazl, ZIP64 when needed), streamed from the store into the
 * store: flat memory for any size. The batch ZIP and workflow sink.zip steps both write theirs here.
 */
import { Readable } from "node:stream";
import { safeEntryNames } from "@vektor/shared/workflows/files";
import yazl from "yazl";
import { useNativeCrc32 } from "./native-crc";
import type { ObjectStore } from "./types";

useNativeCrc32();

export { safeEntryNames } from "@vektor/shared/workflows/files";

/** A stored file as a ZIP entry. */
export interface ZipEntry {
  filename: string;
  size: number;
  createdAt: Date;
  storageKey: string;
}

/**
 * Streams a STORE-mode ZIP of `entries` (names made safe and unique) into `key`, reading each
 * entry only when the writer reaches it: flat memory for any size. Batches and workflow
 * sink.zip steps both write their archives with it.
 */
export function putZip(store: ObjectStore, key: string, entries: ZipEntry[]): Promise<{ size: number; sha256: string }> {
  const names = safeEntryNames(entries.map((e) => e.filename));
  const zip = new yazl.ZipFile();
  entries.forEach((e, i) => {
    zip.addReadStreamLazy(names[i], { compress: false, size: e.size, mtime: e.createdAt }, (cb) => {
      store.get(e.storageKey).then((s) => cb(null, Readable.fromWeb(s as never)), (err) => cb(err, undefined as never));
    });
  });
  zip.end();
  return store.put(key, Readable.toWeb(zip.outputStream as Readable) as unknown as ReadableStream<Uint8Array>);
}
