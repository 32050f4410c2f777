/**
 * Point clouds of any size, written to disk a block at a time: the big inputs of the memory test
 * (server/test/tool-memory.test.ts), the bench (bench/tools-big) and the streaming tests. A LAS
 * of synthetic points, and a LAZ assembled from a real one: the LASzip chunks of the shared
 * autzen_trim.laz (each chunk is compressed on its own) repeated, under its header with the new
 * count, followed by a chunk table for them. Bun only.
 */
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { SHARED_FIXTURES } from "../../testing/fixtures";
import { bytesSource } from "../las/source";
import { encodeChunkTable, readChunkTable } from "../las/chunk-table";
import { H, parseLasHeader } from "../las/header";
import { isLaszipVlr, parseLaszip, parseVlrs } from "../las/vlr";

const MiB = 1024 * 1024;

/** Writes `blocks` to `path` (created or truncated). */
function writeBlocks(path: string, blocks: Iterable<Uint8Array>): string {
  const fd = openSync(path, "w");
  try {
    for (const block of blocks) writeSync(fd, block);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** A LAS 1.2 header of point format 1 (28 bytes a point) for `count` points spanning 0..1000 m in x and y, 0..100 m in z. */
function lasHeader(count: number): Uint8Array {
  const header = new Uint8Array(227);
  const v = new DataView(header.buffer);
  header.set(new TextEncoder().encode("LASF"), 0);
  header[H.versionMajor] = 1;
  header[H.versionMinor] = 2;
  header.set(new TextEncoder().encode("vektor test"), H.software);
  v.setUint16(H.headerSize, 227, true);
  v.setUint32(H.pointDataOffset, 227, true);
  header[H.pointFormat] = 1;
  v.setUint16(H.recordLength, 28, true);
  v.setUint32(H.legacyCount, count, true);
  v.setUint32(H.legacyByReturn, count, true); // all first returns
  for (let axis = 0; axis < 3; axis++) v.setFloat64(H.scale + 8 * axis, 0.01, true);
  for (const [at, value] of [[H.maxX, 1000], [H.maxY, 1000], [H.maxZ, 100]] as const) v.setFloat64(at, value, true);
  return header;
}

/** Records `done` to `done + n` of the synthetic cloud. */
function lasRecords(done: number, n: number): Uint8Array {
  const block = new Uint8Array(n * 28);
  const v = new DataView(block.buffer);
  for (let k = 0; k < n; k++) {
    const i = done + k;
    const at = k * 28;
    v.setInt32(at, (i * 7919) % 100_000, true);
    v.setInt32(at + 4, (i * 104_729) % 100_000, true);
    v.setInt32(at + 8, (i * 31) % 10_000, true);
    v.setUint16(at + 12, i % 65_536, true);
    block[at + 14] = 0b00001001; // return 1 of 1
    block[at + 15] = 2; // ground
    v.setFloat64(at + 20, i * 0.001, true);
  }
  return block;
}

/** Writes a LAS 1.2 file of point format 1 of about `mb` MB to `path`; answers `path`. */
export function writeBigLas(path: string, mb: number): string {
  const count = Math.max(1, Math.floor((mb * MiB - 227) / 28));
  function* blocks() {
    yield lasHeader(count);
    for (let done = 0; done < count; done += 65_536) yield lasRecords(done, Math.min(65_536, count - done));
  }
  return writeBlocks(path, blocks());
}

/** Writes a LAZ of about `mb` MB (at least two chunks) to `path`, from autzen_trim.laz's full chunks; answers `path`. */
export async function writeBigLaz(path: string, mb: number): Promise<string> {
  const source = new Uint8Array(readFileSync(join(SHARED_FIXTURES, "pointcloud", "autzen_trim.laz")));
  const header = parseLasHeader(source, "autzen_trim.laz");
  const laszip = parseLaszip(source, parseVlrs(source, header, "autzen_trim.laz").find(isLaszipVlr)!, "autzen_trim.laz");
  const pieces = (await readChunkTable(bytesSource(source), header, laszip.chunkSize, "autzen_trim.laz")).filter((c) => c.points === laszip.chunkSize);
  const chunks = Array.from({ length: Math.max(2, Math.round((mb * MiB) / ((pieces[0].bytes + pieces[1].bytes) / 2))) }, (_, i) => pieces[i % pieces.length]);
  const head = source.slice(0, header.pointDataOffset);
  const v = new DataView(head.buffer);
  const count = chunks.length * laszip.chunkSize;
  v.setUint32(H.legacyCount, count, true);
  v.setUint32(H.legacyByReturn, count, true); // the returns by number are not kept apart: all counted as first
  for (let i = 1; i < 5; i++) v.setUint32(H.legacyByReturn + 4 * i, 0, true);
  const tableAt = head.length + 8 + chunks.reduce((n, c) => n + c.bytes, 0);
  const offset = new Uint8Array(8);
  new DataView(offset.buffer).setBigInt64(0, BigInt(tableAt), true);
  function* blocks() {
    yield head;
    yield offset;
    for (const c of chunks) yield source.subarray(c.offset, c.offset + c.bytes);
    yield encodeChunkTable(chunks, false);
  }
  return writeBlocks(path, blocks());
}
