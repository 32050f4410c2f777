/**
 * An uncompressed LAS written to an OutputSink as its points come: the input's header and VLRs
 * (minus laszip's), the points, then its EVLRs. A LAZ file thus comes back as the LAS it was made
 * from. Point count, returns and bounds that are known only after the points are patched into
 * the header at the end.
 */
import type { LasFile } from "./cloud";
import { patchHeader, type PointStats } from "./header";
import type { OutputSink } from "./output";
import { isLaszipVlr } from "./vlr";

/** Where a LAS output of `count` points puts its parts. */
export interface LasLayout {
  pointDataOffset: number;
  evlrOffset: number;
  size: number;
}

/** The layout of `file` rewritten as LAS with `count` points. */
export function lasLayout(file: LasFile, count: number): LasLayout {
  const { header, vlrs, evlrs } = file;
  const kept = vlrs.filter((r) => !isLaszipVlr(r));
  const lastVlrEnd = vlrs.length ? vlrs[vlrs.length - 1].end : header.headerSize;
  const vlrBytes = kept.reduce((n, r) => n + (r.end - r.start), 0);
  const pointDataOffset = header.headerSize + vlrBytes + (header.pointDataOffset - lastVlrEnd);
  const evlrOffset = pointDataOffset + count * header.recordLength;
  return { pointDataOffset, evlrOffset, size: evlrOffset + evlrs.reduce((n, r) => n + (r.end - r.start), 0) };
}

/** Writes `file` as LAS around `points` (exactly `count` records); `stats()`, if given, is patched in after them. */
export async function writeLas(sink: OutputSink, file: LasFile, points: AsyncIterable<Uint8Array>, count: number, stats?: () => PointStats): Promise<void> {
  const { header, head, tail, vlrs, evlrs } = file;
  const layout = lasLayout(file, count);
  const patch = (s?: PointStats) =>
    patchHeader(head, header, {
      pointDataOffset: layout.pointDataOffset,
      vlrCount: vlrs.filter((r) => !isLaszipVlr(r)).length,
      pointFormat: header.pointFormat,
      stats: s,
      evlrOffset: evlrs.length ? layout.evlrOffset : undefined,
    });
  await sink.write(patch());
  for (const r of vlrs) if (!isLaszipVlr(r)) await sink.write(head.subarray(r.start, r.end));
  // Bytes between the last VLR and the points (user-defined padding) are kept as they are.
  await sink.write(head.subarray(vlrs.length ? vlrs[vlrs.length - 1].end : header.headerSize, header.pointDataOffset));
  let written = 0;
  for await (const block of points) {
    await sink.write(block);
    written += block.length;
  }
  if (written !== count * header.recordLength) throw new Error(`LAS writer: ${written / header.recordLength} points written, ${count} announced`);
  for (const r of evlrs) await sink.write(tail.subarray(r.start - header.evlrOffset, r.end - header.evlrOffset));
  if (stats) await sink.patch(0, patch(stats()));
}
