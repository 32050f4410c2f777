/**
 * Reads of a mounted Blob, through read-ahead windows. Emscripten's WORKERFS answers each read with one
 * FileReaderSync call for exactly the bytes asked, which GDAL's small reads make slow; each mounted
 * Blob is read through runtime/blob-reads.ts instead (its windows kept per open file, dropped with
 * its node).
 */
import { blobReadAt, type ReadAt } from "../runtime/blob-reads";

/** A WORKERFS node as its read sees it: the Blob. */
interface BlobNode {
  contents: Blob;
}

type Read = (stream: { node: BlobNode }, buffer: Uint8Array, offset: number, length: number, position: number) => number;

/** The part of Emscripten's WORKERFS this changes: the read every mounted Blob's streams use. */
export interface WorkerFs {
  stream_ops: { read: Read };
}

const readers = new WeakMap<BlobNode, ReadAt>();
const patched = new WeakSet<WorkerFs>();

/** Makes `workerfs`'s reads go through a read-ahead window (once per engine). */
export function readThroughWindows(workerfs: WorkerFs): void {
  if (patched.has(workerfs)) return;
  patched.add(workerfs);
  workerfs.stream_ops.read = ({ node }, buffer, offset, length, position) => {
    let read = readers.get(node);
    if (!read) readers.set(node, (read = blobReadAt(node.contents)));
    return read(buffer.subarray(offset, offset + length), position);
  };
}
