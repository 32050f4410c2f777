/**
 * A LAZ file's chunk table (LASzip's layout): where each independently compressed chunk of points
 * starts and how many points it holds, so a reader can take one chunk at a time. The point data
 * starts with the table's 64-bit offset (-1: the offset is in the file's last 8 bytes, for a
 * writer that could not seek back); the table is a version (0), a chunk count, then each chunk's
 * byte size (and point count, for variable-sized chunks) arithmetic-coded.
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import { ArithmeticDecoder, ArithmeticEncoder, IntegerCompressor, IntegerDecompressor } from "./arithmetic";
import type { LasHeader } from "./header";
import type { ByteSource } from "./source";

/** One chunk: its compressed bytes' place in the file and its point count. */
export interface LazChunk {
  offset: number;
  bytes: number;
  points: number;
}

/** The laszip VLR's chunk size for variable-sized chunks (each chunk's count is in the table). */
export const VARIABLE_CHUNKS = 0xffffffff;

function invalid(name: string, what: string): ToolError {
  return new ToolError("INPUT_INVALID", `"${name}" has a damaged or missing LAZ chunk table: ${what}`);
}

async function readInt64(source: ByteSource, at: number, name: string): Promise<number> {
  const bytes = await source.read(at, 8);
  if (bytes.length < 8) throw new ToolError("INPUT_INVALID", `"${name}" is truncated: its compressed point data is cut short`);
  return Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0, true));
}

/** Where the table starts, from the 8 bytes before the chunks (or the file's last 8). */
async function tableOffset(source: ByteSource, header: LasHeader, name: string): Promise<number> {
  const offset = await readInt64(source, header.pointDataOffset, name);
  return offset === -1 ? readInt64(source, source.size - 8, name) : offset;
}

/** The chunks of `header`'s points, checked against the file's size and the point count. */
export async function readChunkTable(source: ByteSource, header: LasHeader, chunkSize: number, name: string): Promise<LazChunk[]> {
  const first = header.pointDataOffset + 8;
  const at = await tableOffset(source, header, name);
  if (at < first || at + 8 > source.size) throw invalid(name, `it would start at byte ${at} of ${source.size}`);
  // The table is small (a few bytes a chunk); it ends at the EVLRs, if any follow it, else at the file's end.
  const end = header.evlrOffset > at ? Math.min(header.evlrOffset, source.size) : source.size;
  const table = await source.read(at, end - at);
  if (table.length < 8) throw invalid(name, "it is cut short");
  const v = new DataView(table.buffer, table.byteOffset, table.byteLength);
  if (v.getUint32(0, true) !== 0) throw invalid(name, `unknown version ${v.getUint32(0, true)}`);
  const count = v.getUint32(4, true);
  const sizes = decodeSizes(table.subarray(8), count, chunkSize === VARIABLE_CHUNKS);
  return placeChunks(sizes, first, at, header.pointCount, chunkSize, name);
}

/** Each chunk's [points, bytes]; points is 0 for fixed-size chunks (the VLR's chunk size applies). */
function decodeSizes(coded: Uint8Array, count: number, variable: boolean): [number, number][] {
  if (count === 0) return [];
  const ic = new IntegerDecompressor(new ArithmeticDecoder(coded), 2);
  const sizes: [number, number][] = [];
  let [points, bytes] = [0, 0];
  for (let i = 0; i < count; i++) {
    if (variable) points = ic.decompress(points, 0);
    bytes = ic.decompress(bytes, 1);
    sizes.push([points, bytes]);
  }
  return sizes;
}

function placeChunks(sizes: [number, number][], first: number, tableAt: number, total: number, chunkSize: number, name: string): LazChunk[] {
  const chunks: LazChunk[] = [];
  let offset = first;
  let done = 0;
  for (const [variablePoints, bytes] of sizes) {
    const points = chunkSize === VARIABLE_CHUNKS ? variablePoints : Math.min(chunkSize, total - done);
    if (bytes <= 0 || points <= 0 || offset + bytes > tableAt) throw invalid(name, `chunk ${chunks.length + 1} of ${sizes.length} lies outside the point data`);
    chunks.push({ offset, bytes, points });
    offset += bytes;
    done += points;
  }
  if (done !== total) throw invalid(name, `its chunks hold ${done} points, the header announces ${total}`);
  return chunks;
}

/** A chunk table as LASzip writes it (version 0): for chunks of `points` (written when `variable`) and `bytes`. */
export function encodeChunkTable(chunks: { points: number; bytes: number }[], variable: boolean): Uint8Array {
  const enc = new ArithmeticEncoder();
  const ic = new IntegerCompressor(enc, 2);
  let [points, bytes] = [0, 0];
  for (const chunk of chunks) {
    if (variable) ic.compress(points, chunk.points, 0);
    ic.compress(bytes, chunk.bytes, 1);
    [points, bytes] = [chunk.points, chunk.bytes];
  }
  const coded = chunks.length ? enc.done() : new Uint8Array(0);
  const out = new Uint8Array(8 + coded.length);
  new DataView(out.buffer).setUint32(4, chunks.length, true);
  out.set(coded, 8);
  return out;
}
