/**
 * Reads of a mounted Blob, a window at a time. Emscripten's WORKERFS answers each read with one
 * FileReaderSync call for exactly the bytes asked, and GDAL asks through musl's stdio for 1 KB and
 * 39 KB in turn: gis.info on a 144 MB GeoJSON took 32 s that way in Chromium (11 s with the file
 * in memory), 18-22 s with 4 MB windows, the rest being FileReaderSync's own pace (about 200 MB/s
 * here) over GDAL's several passes. A small read is served from a window of WINDOW_BYTES read at
 * once (one per open file, dropped with its node); a big one goes through as before. Memory stays
 * flat: a window, not the file.
 */

/** A WORKERFS node as its read sees it: the Blob and its size. */
interface BlobNode {
  contents: Blob;
  size: number;
}

type Read = (stream: { node: BlobNode }, buffer: Uint8Array, offset: number, length: number, position: number) => number;

/** The part of Emscripten's WORKERFS this changes: the read every mounted Blob's streams use. */
export interface WorkerFs {
  stream_ops: { read: Read };
}

const WINDOW_BYTES = 4 * 1024 * 1024;
const windows = new WeakMap<BlobNode, { at: number; bytes: Uint8Array }>();
const patched = new WeakSet<WorkerFs>();

/** Makes `workerfs`'s reads go through a read-ahead window (once per engine). */
export function readThroughWindows(workerfs: WorkerFs): void {
  if (patched.has(workerfs)) return;
  patched.add(workerfs);
  const direct = workerfs.stream_ops.read;
  const reader = new (globalThis as unknown as { FileReaderSync: new () => { readAsArrayBuffer(blob: Blob): ArrayBuffer } }).FileReaderSync();
  workerfs.stream_ops.read = (stream, buffer, offset, length, position) => {
    const node = stream.node;
    if (position >= node.size) return 0;
    if (length >= WINDOW_BYTES) return direct(stream, buffer, offset, length, position);
    let held = windows.get(node);
    const wanted = Math.min(length, node.size - position);
    if (!held || position < held.at || position + wanted > held.at + held.bytes.byteLength) {
      const end = Math.min(node.size, position + WINDOW_BYTES);
      held = { at: position, bytes: new Uint8Array(reader.readAsArrayBuffer(node.contents.slice(position, end))) };
      windows.set(node, held);
    }
    const from = position - held.at;
    buffer.set(held.bytes.subarray(from, from + wanted), offset);
    return wanted;
  };
}
