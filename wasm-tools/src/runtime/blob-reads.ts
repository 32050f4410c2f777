/**
 * Synchronous reads of a Blob (a browser's File), a window at a time, for engines that read their
 * input as it goes and cannot wait (GDAL through Emscripten's WORKERFS, mupdf through a Stream).
 * FileReaderSync reads a Blob synchronously; only a Web Worker has it (not a page, not Bun or Node).
 *
 * Each FileReaderSync call costs far more than its bytes, and the engines ask for little at a time:
 * GDAL asks through musl's stdio for 1 KB and 39 KB in turn, so gis.info on a 144 MB GeoJSON took
 * 32 s in Chromium read exactly as asked (11 s with the file in memory), 18-22 s with 4 MB windows,
 * the rest being FileReaderSync's own pace (about 200 MB/s here) over GDAL's several passes. A small
 * read is served from a window of WINDOW_BYTES read at once; a big one is read as asked. Memory
 * stays flat: a window, not the file.
 */

/** Fills `into` from `position` of a file; answers how many bytes there were (0 past its end). */
export type ReadAt = (into: Uint8Array, position: number) => number;

interface FileReaderSyncLike {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

const WINDOW_BYTES = 4 * 1024 * 1024;

function fileReaderSync(): FileReaderSyncLike | undefined {
  const Reader = (globalThis as { FileReaderSync?: new () => FileReaderSyncLike }).FileReaderSync;
  return typeof Reader === "function" ? new Reader() : undefined;
}

/** Whether this host reads a Blob synchronously (FileReaderSync: a Web Worker). */
export function readsBlobsSync(): boolean {
  return typeof (globalThis as { FileReaderSync?: unknown }).FileReaderSync === "function";
}

/** Synchronous reads of `blob` through a read-ahead window; throws where there is no FileReaderSync. */
export function blobReadAt(blob: Blob): ReadAt {
  const reader = fileReaderSync();
  if (!reader) throw new Error("a Blob is read synchronously only in a Web Worker (FileReaderSync)");
  const size = blob.size;
  const range = (start: number, end: number) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(start, end)));
  let held: { at: number; bytes: Uint8Array } | undefined;
  return (into, position) => {
    if (position >= size) return 0;
    const wanted = Math.min(into.length, size - position);
    if (wanted >= WINDOW_BYTES) {
      into.set(range(position, position + wanted));
      return wanted;
    }
    if (!held || position < held.at || position + wanted > held.at + held.bytes.byteLength) {
      held = { at: position, bytes: range(position, Math.min(size, position + WINDOW_BYTES)) };
    }
    const from = position - held.at;
    into.set(held.bytes.subarray(from, from + wanted));
    return wanted;
  };
}
