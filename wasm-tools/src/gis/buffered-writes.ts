/**
 * Writes to host files in large pieces. GDAL writes through the C library's stdio, whose buffer
 * in Emscripten's libc is 1 KB, and Emscripten's NODEFS makes each of those writes one
 * fs.writeSync: GeoPackage -> GeoJSON called it 188,000 times for a 214 MB output, 0.95 s of a
 * 9.4 s run. Here what a stream writes at consecutive positions is kept in a 1 MB piece and written
 * when the piece is full, when the stream writes elsewhere or another stream writes, and before
 * any other NODEFS operation on that file (read, seek, stat, truncate, close, ...) and any that
 * changes or lists a folder, so everything else sees the file as written. An error writing a
 * piece comes out of the operation that wrote it.
 */

/** An open NODEFS file as its operations see it. */
interface Stream {
  node: unknown;
}

type Write = (stream: Stream, buffer: Uint8Array, offset: number, length: number, position: number, canOwn?: boolean) => number;

/** The part of Emscripten's NODEFS this changes: the operations every node and stream of it use. */
export interface NodeFs {
  stream_ops: Record<string, unknown> & { write: Write };
  node_ops: Record<string, unknown>;
}

const PIECE = 1 << 20;

/** The bytes written but not yet on disk: one stream's, from `position` on. */
interface Pending {
  stream: Stream;
  position: number;
  length: number;
}

const patched = new WeakSet<NodeFs>();

/** Makes `nodefs`'s writes go out in large pieces (once per engine). */
export function bufferWrites(nodefs: NodeFs): void {
  if (patched.has(nodefs)) return;
  patched.add(nodefs);
  const write = nodefs.stream_ops.write;
  const piece = new Uint8Array(PIECE);
  let pending: Pending | null = null;

  const flush = () => {
    if (!pending) return;
    const { stream, position, length } = pending;
    pending = null;
    for (let done = 0; done < length; ) done += write(stream, piece, done, length - done, position + done);
  };

  nodefs.stream_ops.write = (stream, buffer, offset, length, position) => {
    // The heap comes as an Int8Array: a Uint8Array view of it copies without converting each byte.
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length);
    const p = pending;
    if (p && p.stream === stream && p.position + p.length === position && p.length + length <= PIECE) {
      piece.set(bytes, p.length);
      p.length += length;
      return length;
    }
    flush();
    if (length >= PIECE) return write(stream, buffer, offset, length, position);
    piece.set(bytes, 0);
    pending = { stream, position, length };
    return length;
  };
  // Another file's reads (the input's, say) leave the piece alone; anything touching this file,
  // or renaming, removing or listing, writes it first.
  const touches = (target: unknown) => pending !== null && (target === pending.stream || target === pending.stream.node || (target as Stream | null)?.node === pending.stream.node);
  for (const [name, op] of Object.entries(nodefs.stream_ops)) {
    if (name !== "write" && typeof op === "function") nodefs.stream_ops[name] = flushingFirst(op as Op, flush, name === "close", touches);
  }
  for (const [name, op] of Object.entries(nodefs.node_ops)) {
    const always = !["getattr", "setattr", "lookup", "readlink"].includes(name);
    if (typeof op === "function") nodefs.node_ops[name] = flushingFirst(op as Op, flush, false, (target) => always || touches(target));
  }
}

type Op = (...args: unknown[]) => unknown;

/** `op`, after the pending bytes are written when `needs(its first argument)`; a close still closes its file when that fails. */
function flushingFirst(op: Op, flush: () => void, isClose: boolean, needs: (target: unknown) => boolean): Op {
  return function (this: unknown, ...args: unknown[]) {
    try {
      if (needs(args[0])) flush();
    } catch (err) {
      if (isClose) op.apply(this, args);
      throw err;
    }
    return op.apply(this, args);
  };
}
