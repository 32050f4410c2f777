/**
 * LAZ point decoding with laz-perf, one chunk at a time: a chunk's compressed bytes go into WASM
 * memory, its points come out in blocks, and the chunk is freed before the next is read. So
 * memory does not grow with the file. Any decoder failure (damaged chunk) becomes INPUT_INVALID
 * and retires the WASM instance.
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import { errorMessage } from "../../runtime/context";
import { discardLazPerf, loadLazPerf, type LazPerf } from "../init";
import { encodeChunkTable, readChunkTable, VARIABLE_CHUNKS, type LazChunk } from "./chunk-table";
import { H, type LasHeader } from "./header";
import type { LasFile } from "./cloud";
import { isLaszipVlr, parseLaszip, type VariableRecord } from "./vlr";

/** Point formats laz-perf decodes (waveform formats 4, 5, 9, 10 are not supported). */
const DECODABLE_FORMATS = new Set([0, 1, 2, 3, 6, 7, 8]);

/** A LAZ file's chunks, and whether each has its own point count (variable-sized chunks). */
export interface LazPlan {
  chunks: LazChunk[];
  variable: boolean;
}

/** What decoding reads of the file: its source, its bytes up to the points, header and name. */
type LazFile = Pick<LasFile, "source" | "head" | "header" | "name">;

/** The chunks of a LAZ file's points, after checking that laz-perf can decode them. */
export async function lazPlan({ source, head, header, name }: LazFile, vlrs: VariableRecord[]): Promise<LazPlan> {
  const record = vlrs.find(isLaszipVlr);
  if (!record) throw new ToolError("INPUT_INVALID", `"${name}" is marked compressed but has no laszip VLR`);
  const laszip = parseLaszip(head, record, name);
  if (laszip.compressor !== 2 && laszip.compressor !== 3) {
    throw new ToolError("INPUT_UNSUPPORTED", `"${name}" uses LAZ compressor ${laszip.compressor}; only chunked LAZ (2, 3) is supported`);
  }
  if (!DECODABLE_FORMATS.has(header.pointFormat)) {
    throw new ToolError("INPUT_UNSUPPORTED", `"${name}" is LAZ with point format ${header.pointFormat}, which the decoder does not support`);
  }
  return { chunks: await readChunkTable(source, header, laszip.chunkSize, name), variable: laszip.chunkSize === VARIABLE_CHUNKS };
}

/** Decodes the plan's chunks into blocks of at most `blockPoints` uncompressed records. */
export async function* decodeLaz(file: LazFile, plan: LazPlan, blockPoints: number): AsyncGenerator<Uint8Array> {
  const { source, header, name } = file;
  const lib = await loadLazPerf();
  const length = header.recordLength;
  let healthy = true;
  let done = 0;
  /** Runs a decoder step; a failure inside laz-perf is the file's fault and spoils the instance. */
  const guard = <T>(step: () => T): T => {
    try {
      return step();
    } catch (err) {
      if (err instanceof ToolError) throw err;
      healthy = false;
      throw new ToolError("INPUT_INVALID", `"${name}" has damaged compressed point data (decoder failed after point ${done} of ${header.pointCount}: ${errorMessage(err).slice(0, 120)})`);
    }
  };
  const points = lib._malloc(blockPoints * length);
  const buffer = new Uint8Array(blockPoints * length);
  try {
    if (!points) throw new ToolError("TOOL_FAILED", "The LAZ decoder is out of memory");
    for (const chunk of plan.chunks) {
      const compressed = await source.read(chunk.offset, chunk.bytes);
      if (compressed.length < chunk.bytes) throw new ToolError("INPUT_INVALID", `"${name}" is truncated inside its compressed point data`);
      const decoder = guard(() => openChunk(lib, file.head, header, plan.variable, chunk, compressed));
      try {
        for (let left = chunk.points; left > 0; left -= blockPoints) {
          const count = Math.min(left, blockPoints);
          yield guard(() => decodeBlock(lib, decoder, points, buffer.subarray(0, count * length), length));
          done += count;
        }
      } finally {
        if (healthy) decoder.close();
      }
    }
  } finally {
    if (!healthy) discardLazPerf();
    else if (points) lib._free(points);
  }
}

interface OpenChunk {
  getPoint(pointer: number): void;
  close(): void;
}

/**
 * A decoder on one chunk: laz-perf's LASZip opened on a one-chunk LAZ file in the heap (the
 * file's header with the chunk's point count, its VLRs, the chunk and a one-chunk table). Not its
 * ChunkDecoder: that reads on past a damaged chunk's end into whatever follows and returns
 * garbage points, while LASZip's reads are bounded by the table and fail. `close` frees it.
 */
function openChunk(lib: LazPerf, head: Uint8Array, header: LasHeader, variable: boolean, chunk: LazChunk, compressed: Uint8Array): OpenChunk {
  const table = encodeChunkTable([{ points: chunk.points, bytes: chunk.bytes }], variable);
  const size = head.length + 8 + compressed.length + table.length;
  const pointer = lib._malloc(size);
  if (!pointer) throw new ToolError("TOOL_FAILED", "The LAZ decoder is out of memory");
  lib.HEAPU8.set(oneChunkHeader(head, header, chunk.points), pointer);
  new DataView(lib.HEAPU8.buffer, pointer + head.length, 8).setBigInt64(0, BigInt(head.length + 8 + compressed.length), true);
  lib.HEAPU8.set(compressed, pointer + head.length + 8);
  lib.HEAPU8.set(table, pointer + head.length + 8 + compressed.length);
  const reader = new lib.LASZip();
  const close = () => {
    reader.delete();
    lib._free(pointer);
  };
  let opened = false;
  try {
    reader.open(pointer, size);
    opened = reader.getCount() === chunk.points;
  } finally {
    if (!opened) close();
  }
  return { getPoint: (at) => reader.getPoint(at), close };
}

/** The file's header and VLRs, counting `points` and without EVLRs. */
function oneChunkHeader(head: Uint8Array, header: LasHeader, points: number): Uint8Array {
  const copy = head.slice();
  const v = new DataView(copy.buffer);
  if (v.getUint32(H.legacyCount, true) !== 0) v.setUint32(H.legacyCount, points, true);
  if (header.versionMinor >= 4) {
    v.setBigUint64(H.count14, BigInt(points), true);
    v.setBigUint64(H.evlrOffset, 0n, true);
    v.setUint32(H.evlrCount, 0, true);
  }
  return copy;
}

/** Points decoded into the heap at `points`, copied out into `into` (whose size says how many). */
function decodeBlock(lib: LazPerf, decoder: OpenChunk, points: number, into: Uint8Array, length: number): Uint8Array {
  for (let at = 0; at < into.length; at += length) decoder.getPoint(points + at);
  into.set(lib.HEAPU8.subarray(points, points + into.length));
  return into;
}
