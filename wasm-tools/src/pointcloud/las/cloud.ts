/**
 * A LAS or LAZ file in memory: header, VLRs, EVLRs and uncompressed point records. Reading
 * decodes LAZ; writing produces uncompressed LAS from the input's own header and records, so a
 * LAZ file comes back as the LAS it was made from.
 */
import { ToolError, type RunContext, type ToolInput } from "@vektor/shared/tools/manifest";
import { parseLasHeader, patchHeader, POINT_LAYOUTS, type LasHeader, type PointLayout, type PointStats } from "./header";
import { decodeLazPoints } from "./laz";
import { isLaszipVlr, parseEvlrs, parseVlrs, type VariableRecord } from "./vlr";

/** A decoded point cloud and the file it came from. */
export interface PointCloud {
  name: string;
  source: Uint8Array;
  header: LasHeader;
  layout: PointLayout;
  vlrs: VariableRecord[];
  evlrs: VariableRecord[];
  /** `count * header.recordLength` bytes of uncompressed point records. */
  points: Uint8Array;
  count: number;
}

/** Header and records of `input` without touching the point data (for reports). */
export function readLasStructure(input: ToolInput): Pick<PointCloud, "name" | "source" | "header" | "layout" | "vlrs" | "evlrs"> {
  const header = parseLasHeader(input.bytes, input.name);
  const vlrs = parseVlrs(input.bytes, header, input.name);
  const evlrs = parseEvlrs(input.bytes, header, input.name);
  return { name: input.name, source: input.bytes, header, layout: POINT_LAYOUTS[header.pointFormat], vlrs, evlrs };
}

/** Reads `input` (LAS or LAZ) with its point records uncompressed; INPUT_EMPTY when it has no points. */
export async function readPointCloud(input: ToolInput, ctx: RunContext): Promise<PointCloud> {
  const structure = readLasStructure(input);
  const { header, vlrs } = structure;
  if (header.pointCount === 0) throw new ToolError("INPUT_EMPTY", `"${input.name}" contains no points`);
  let points: Uint8Array;
  if (header.compressed) {
    points = await decodeLazPoints(input.bytes, header, vlrs, input.name, ctx);
  } else {
    const end = header.pointDataOffset + header.pointCount * header.recordLength;
    if (end > input.bytes.length) {
      throw new ToolError("INPUT_INVALID", `"${input.name}" is truncated: its header announces ${header.pointCount} points (${end} bytes) but the file has ${input.bytes.length}`);
    }
    points = input.bytes.subarray(header.pointDataOffset, end);
  }
  return { ...structure, points, count: header.pointCount };
}

/** Options for `writeLas`. */
export interface WriteOptions {
  /** Recomputed count, returns and bounds (a changed point set); omit to keep the header's. */
  stats?: PointStats;
}

/** An uncompressed LAS file: the input's header and VLRs (minus laszip's), `points`, then its EVLRs. */
export function writeLas(cloud: PointCloud, points: Uint8Array, options: WriteOptions = {}): Uint8Array {
  const { source, header, vlrs, evlrs } = cloud;
  const kept = vlrs.filter((r) => !isLaszipVlr(r));
  const lastVlrEnd = vlrs.length ? vlrs[vlrs.length - 1].end : header.headerSize;
  // Bytes between the last VLR and the points (user-defined padding) are kept as they are.
  const padding = source.subarray(lastVlrEnd, header.pointDataOffset);
  const vlrBytes = kept.reduce((n, r) => n + (r.end - r.start), 0);
  const pointDataOffset = header.headerSize + vlrBytes + padding.length;
  const evlrBytes = evlrs.reduce((n, r) => n + (r.end - r.start), 0);
  const out = new Uint8Array(pointDataOffset + points.length + evlrBytes);
  out.set(
    patchHeader(source, header, {
      pointDataOffset,
      vlrCount: kept.length,
      pointFormat: header.pointFormat,
      stats: options.stats,
      evlrOffset: evlrs.length ? pointDataOffset + points.length : undefined,
    }),
  );
  let at = header.headerSize;
  for (const r of kept) {
    out.set(source.subarray(r.start, r.end), at);
    at += r.end - r.start;
  }
  out.set(padding, at);
  out.set(points, pointDataOffset);
  at = pointDataOffset + points.length;
  for (const r of evlrs) {
    out.set(source.subarray(r.start, r.end), at);
    at += r.end - r.start;
  }
  return out;
}
