/**
 * A truncation check for TIFF files before GDAL sees them. GDAL reads a TIFF's header and
 * directory first and its pixels only on demand, so a cut-off download opens fine and fails
 * half-way through a conversion (or not at all for gis.info). Walking the image file directories
 * and comparing where the strips or tiles end with the file's length answers it up front.
 */
import { ToolError, type ToolInput } from "@vektor/shared/tools/manifest";

const STRIP_OFFSETS = 273;
const STRIP_BYTE_COUNTS = 279;
const TILE_OFFSETS = 324;
const TILE_BYTE_COUNTS = 325;
const MAX_DIRECTORIES = 10_000;

/** Byte sizes of the TIFF field types that can hold offsets and counts (SHORT, LONG, LONG8). */
const TYPE_SIZE: Record<number, number> = { 3: 2, 4: 4, 16: 8 };

/** How far the image data reaches, or a reason the structure itself is cut off. */
export function tiffDataEnd(bytes: Uint8Array): { end: number } | { broken: string } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = bytes[0] === 0x49;
  const big = view.getUint16(2, little) === 43;
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  const u64 = (at: number) => Number(view.getBigUint64(at, little));
  const offsetAt = (at: number) => (big ? u64(at) : u32(at));
  const entrySize = big ? 20 : 12;
  let next = big ? (bytes.length >= 16 ? u64(8) : Infinity) : bytes.length >= 8 ? u32(4) : Infinity;
  let end = 0;
  const seen = new Set<number>();
  while (next !== 0) {
    if (seen.has(next) || seen.size >= MAX_DIRECTORIES) return { broken: "its image directories loop" };
    seen.add(next);
    const countSize = big ? 8 : 2;
    if (next + countSize > bytes.length) return { broken: `an image directory starts at byte ${next}` };
    const entries = big ? u64(next) : u16(next);
    const tableEnd = next + countSize + entries * entrySize + (big ? 8 : 4);
    if (tableEnd > bytes.length) return { broken: `an image directory ends at byte ${tableEnd}` };
    const fields = new Map<number, number[]>();
    for (let i = 0; i < entries; i++) {
      const at = next + countSize + i * entrySize;
      const tag = u16(at);
      if (![STRIP_OFFSETS, STRIP_BYTE_COUNTS, TILE_OFFSETS, TILE_BYTE_COUNTS].includes(tag)) continue;
      const size = TYPE_SIZE[u16(at + 2)];
      if (!size) continue;
      const count = big ? u64(at + 4) : u32(at + 4);
      const inline = count * size <= (big ? 8 : 4);
      const base = inline ? at + (big ? 12 : 8) : offsetAt(at + (big ? 12 : 8));
      if (base + count * size > bytes.length) return { broken: `its strip or tile table ends at byte ${base + count * size}` };
      const values: number[] = [];
      for (let k = 0; k < count; k++) {
        const p = base + k * size;
        values.push(size === 2 ? u16(p) : size === 4 ? u32(p) : u64(p));
      }
      fields.set(tag, values);
    }
    for (const [offsetsTag, countsTag] of [
      [STRIP_OFFSETS, STRIP_BYTE_COUNTS],
      [TILE_OFFSETS, TILE_BYTE_COUNTS],
    ]) {
      const offsets = fields.get(offsetsTag) ?? [];
      const counts = fields.get(countsTag) ?? [];
      offsets.forEach((offset, k) => {
        if (offset > 0 && counts[k] > 0) end = Math.max(end, offset + counts[k]);
      });
    }
    next = offsetAt(tableEnd - (big ? 8 : 4));
  }
  return { end };
}

/** Throws INPUT_INVALID when a TIFF's directories or pixel data reach past the end of the file. */
export function assertCompleteTiff(input: ToolInput): void {
  let result: ReturnType<typeof tiffDataEnd>;
  try {
    result = tiffDataEnd(input.bytes);
  } catch {
    result = { broken: "its structure points outside the file" }; // a DataView read past the end
  }
  if ("broken" in result) throw new ToolError("INPUT_INVALID", `"${input.name}" is truncated or damaged: ${result.broken}, but the file has ${input.bytes.length} bytes`);
  if (result.end > input.bytes.length) {
    throw new ToolError("INPUT_INVALID", `"${input.name}" is truncated: its image data runs to byte ${result.end}, but the file has ${input.bytes.length} bytes`);
  }
}
