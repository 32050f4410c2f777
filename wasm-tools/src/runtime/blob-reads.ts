/**
 * Synchronous reads of a Blob (a browser's File), a window at a time, for engines that read their
 * input as it goes and cannot wait (GDAL through Emscripten's WORKERFS, mupdf through a Stream).
 * FileReaderSync reads a Blob synchronously; only a Web Worker has it (not a page, not Bun or Node).
 *
 * Each FileReaderSync call costs far more than its bytes, and the engines ask for little at a time:
 * GDAL asks through musl's stdio for 1 KB and 39 KB in turn, so gis.info on a 144 MB GeoJSON took
 * 32 s in Chromium read exactly as asked (11 s with the file in memory), 18-22 s with 4 MB windows,
 * the rest being FileReaderSync's own pace (about 200 MB/s here) over GDAL's several passes. A small
 * read is served from a window read at once, which grows to MAX_WINDOW as reads go on through the
 * file; a big one is read as asked. Memory stays flat: a few windows, not the file.
 */

/** Fills `into` from `position` of a file; answers how many bytes there were (0 past its end). */
export type ReadAt = (into: Uint8Array, position: number) => number;

interface FileReaderSyncLike {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

const MIN_WINDOW = 64 * 1024;
const MAX_WINDOW = 4 * 1024 * 1024;
const HELD_WINDOWS = 4;

function fileReaderSync(): FileReaderSyncLike | undefined {
  const Reader = (globalThis as { FileReaderSync?: new () => FileReaderSyncLike }).FileReaderSync;
  return typeof Reader === "function" ? new Reader() : undefined;
}

/** Whether this host reads a Blob synchronously (FileReaderSync: a Web Worker). */
export function readsBlobsSync(): boolean {
  return typeof (globalThis as { FileReaderSync?: unknown }).FileReaderSync === "function";
}

/** Synchronous reads of `blob` through read-ahead windows; throws where there is no FileReaderSync. */
export function blobReadAt(blob: Blob): ReadAt {
  const reader = fileReaderSync();
  if (!reader) throw new Error("a Blob is read synchronously only in a Web Worker (FileReaderSync)");
  const size = blob.size;
  const range = (start: number, end: number) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(start, end)));
  const windowAt = heldWindows((at, length) => ({ at, bytes: range(at, Math.min(size, at + length)) }));
  return (into, position) => {
    if (position >= size) return 0;
    const wanted = Math.min(into.length, size - position);
    if (wanted >= MAX_WINDOW) {
      into.set(range(position, position + wanted));
      return wanted;
    }
    for (let done = 0; done < wanted; ) {
      const at = position + done;
      const held = windowAt(at);
      const piece = held.bytes.subarray(at - held.at, at - held.at + wanted - done);
      into.set(piece, done);
      done += piece.length;
    }
    return wanted;
  };
}

interface Window {
  at: number;
  bytes: Uint8Array;
}

/**
 * The window holding position `at`: one of the last HELD_WINDOWS used, else a new one read there,
 * MIN_WINDOW long, or twice as long as the held window it continues (up to MAX_WINDOW). mupdf
 * reads a PDF's objects here and there, then an image's stream straight through, then objects
 * before it again (each image twice, here). On a 256 MB PDF of 32 scanned pages in Chromium, one
 * 4 MB window wherever a read fell read 805 MB for pdf.extract-text, and 171 MB for pdf.split of
 * one page (walking the page tree, 4 MB a page object); these windows read 271 MB (mupdf asked
 * for 539 MB) in 1.6 s instead of 2.7 s, and 10 MB for the split.
 */
function heldWindows(read: (at: number, length: number) => Window): (at: number) => Window {
  const held: Window[] = [];
  return (at) => {
    const hit = held.findIndex((w) => at >= w.at && at < w.at + w.bytes.byteLength);
    let found: Window;
    if (hit >= 0) found = held.splice(hit, 1)[0]!;
    else {
      const continued = held.find((w) => w.at + w.bytes.byteLength === at);
      found = read(at, continued ? Math.min(MAX_WINDOW, 2 * continued.bytes.byteLength) : MIN_WINDOW);
    }
    held.unshift(found);
    held.length = Math.min(held.length, HELD_WINDOWS);
    return found;
  };
}
