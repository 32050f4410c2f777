/**
 * Regroups a stream's chunks (often 16-64 KiB off the network) into fixed-size blocks and hands
 * them to a sink with one block in flight while the next one fills. Memory stays at two blocks
 * whatever the body's length, and the disk or S3 works while we keep reading.
 */

/** Where pumpBlocks sends its blocks: a file at an offset, or S3 parts. */
export interface BlockSink {
  /** Sees every chunk before it is buffered; throwing stops the body (size cap). */
  onChunk(chunk: Uint8Array): void;
  /**
   * Writes the block that starts at byte `offset` of the body. `last` marks the final block,
   * which is empty only for an empty body. The buffer is reused once the promise settles.
   */
  write(block: Uint8Array, offset: number, last: boolean): Promise<void>;
}

/** Returns the byte count. On any failure the body is cancelled and no write is left running. */
export async function pumpBlocks(body: ReadableStream<Uint8Array>, blockSize: number, sink: BlockSink): Promise<number> {
  const reader = body.getReader();
  let buf = new Uint8Array(blockSize);
  let spare = new Uint8Array(blockSize);
  let fill = 0;
  let offset = 0;
  let inflight: Promise<void> = Promise.resolve();
  const flush = async (last: boolean) => {
    await inflight;
    inflight = sink.write(buf.subarray(0, fill), offset, last);
    // A failed write surfaces at the next await; the no-op handler keeps it from counting as unhandled meanwhile.
    inflight.catch(() => {});
    offset += fill;
    [buf, spare] = [spare, buf];
    fill = 0;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      sink.onChunk(value);
      for (let pos = 0; pos < value.length; ) {
        // A full block is written only once more bytes arrive, so the final block is known as such.
        if (fill === blockSize) await flush(false);
        const n = Math.min(blockSize - fill, value.length - pos);
        buf.set(value.subarray(pos, pos + n), fill);
        fill += n;
        pos += n;
      }
    }
    await flush(true);
    await inflight;
    return offset;
  } catch (err) {
    await inflight.catch(() => {});
    await reader.cancel(err).catch(() => {});
    throw err;
  } finally {
    reader.releaseLock();
  }
}

/** Reads a whole body of at most `max` bytes (one S3 part proxied by the server). */
export async function readAtMost(body: ReadableStream<Uint8Array>, max: number, tooLong: () => Error): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > max) throw tooLong();
      chunks.push(value);
    }
  } catch (err) {
    await reader.cancel(err).catch(() => {});
    throw err;
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
