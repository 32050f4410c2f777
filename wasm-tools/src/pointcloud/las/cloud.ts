/**
 * A LAS or LAZ file read through a ByteSource: header, VLRs and EVLRs in memory (small), point
 * records read a block at a time (LAZ decoded chunk by chunk). So a tool's memory does not grow
 * with the file when the host gives it as a file; given bytes, nothing is copied.
 */
import { ToolError, type RunContext, type ToolInput } from "@vektor/shared/tools/manifest";
import { yieldAndCheck } from "../../runtime/context";
import { parseLasHeader, POINT_LAYOUTS, type LasHeader, type PointLayout } from "./header";
import { decodeLaz, lazPlan, type LazPlan } from "./laz";
import { openSource, type ByteSource } from "./source";
import { parseEvlrs, parseVlrs, type VariableRecord } from "./vlr";

/** Points per block handed to a tool (a few MB of records). */
export const BLOCK_POINTS = 65_536;
/** Enough of the file to hold any header (1.4's is 375 bytes, plus room for a larger one). */
const HEAD_PROBE = 64 * 1024;

/** A LAS/LAZ file's structure and where its points are. */
export interface LasFile {
  name: string;
  source: ByteSource;
  header: LasHeader;
  layout: PointLayout;
  vlrs: VariableRecord[];
  evlrs: VariableRecord[];
  /** The file's bytes up to its point data: header, VLRs and any padding after them. */
  head: Uint8Array;
  /** The file's bytes from `header.evlrOffset` to its end (empty without EVLRs). */
  tail: Uint8Array;
}

/** A LAS/LAZ file with points, checked so that reading them will not meet a missing byte. */
export interface PointCloud extends LasFile {
  count: number;
  /** LAZ: its compressed chunks; LAS: null. */
  laz: LazPlan | null;
}

/** Runs `use` on `input`'s structure, the input closed afterwards. */
export async function withLasFile<T>(input: ToolInput, use: (file: LasFile) => Promise<T>): Promise<T> {
  const source = await openSource(input);
  try {
    return await use(await readStructure(source, input.name));
  } finally {
    await source.close();
  }
}

/** Runs `use` on `input` (LAS or LAZ) ready to read its points; INPUT_EMPTY when it has none. */
export function withPointCloud<T>(input: ToolInput, use: (cloud: PointCloud) => Promise<T>): Promise<T> {
  return withLasFile(input, async (file) => use(await checkPoints(file)));
}

async function readStructure(source: ByteSource, name: string): Promise<LasFile> {
  const probe = await source.read(0, HEAD_PROBE);
  const header = parseLasHeader(probe, name, source.size);
  const head = header.pointDataOffset <= probe.length ? probe.subarray(0, header.pointDataOffset) : await source.read(0, header.pointDataOffset);
  const vlrs = parseVlrs(head, header, name);
  const hasEvlrs = header.evlrCount > 0 && header.evlrOffset > 0;
  if (hasEvlrs && header.evlrOffset > source.size) throw new ToolError("INPUT_INVALID", `"${name}" is truncated inside its extended VLRs`);
  const tail = hasEvlrs ? await source.read(header.evlrOffset, source.size - header.evlrOffset) : new Uint8Array(0);
  const evlrs = parseEvlrs(tail, header, name, header.evlrOffset);
  return { name, source, header, layout: POINT_LAYOUTS[header.pointFormat], vlrs, evlrs, head, tail };
}

async function checkPoints(file: LasFile): Promise<PointCloud> {
  const { header, name, source } = file;
  if (header.pointCount === 0) throw new ToolError("INPUT_EMPTY", `"${name}" contains no points`);
  if (header.compressed) return { ...file, count: header.pointCount, laz: await lazPlan(file, file.vlrs) };
  const end = header.pointDataOffset + header.pointCount * header.recordLength;
  if (end > source.size) {
    throw new ToolError("INPUT_INVALID", `"${name}" is truncated: its header announces ${header.pointCount} points (${end} bytes) but the file has ${source.size}`);
  }
  return { ...file, count: header.pointCount, laz: null };
}

/** A record's payload, from the head (VLRs) or the tail (EVLRs). */
export function payloadOf(file: LasFile, record: VariableRecord): Uint8Array {
  if (record.start < file.header.pointDataOffset) return file.head.subarray(record.dataStart, record.end);
  const base = file.header.evlrOffset;
  return file.tail.subarray(record.dataStart - base, record.end - base);
}

/**
 * The cloud's point records in blocks of at most BLOCK_POINTS, uncompressed, in file order (a
 * block is valid until the next is asked for: its buffer is reused);
 * progress is reported as `message` (within `span` of the run, for a tool that reads twice) and
 * cancellation checked between blocks.
 */
export async function* pointBlocks(cloud: PointCloud, ctx: RunContext, message: string, span: [number, number] = [0, 1]): AsyncGenerator<Uint8Array> {
  const blocks = cloud.laz ? decodeLaz(cloud, cloud.laz, BLOCK_POINTS) : lasBlocks(cloud);
  const length = cloud.header.recordLength;
  let done = 0;
  for await (const block of blocks) {
    yield block;
    done += block.length / length;
    ctx.onProgress(span[0] + ((span[1] - span[0]) * done) / cloud.count, message);
    if (done < cloud.count) await yieldAndCheck(ctx);
  }
}

async function* lasBlocks(cloud: PointCloud): AsyncGenerator<Uint8Array> {
  const length = cloud.header.recordLength;
  const buffer = new Uint8Array(BLOCK_POINTS * length);
  for (let done = 0; done < cloud.count; done += BLOCK_POINTS) {
    const count = Math.min(BLOCK_POINTS, cloud.count - done);
    yield await cloud.source.read(cloud.header.pointDataOffset + done * length, count * length, buffer);
  }
}
