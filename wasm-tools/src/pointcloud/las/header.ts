/**
 * The LAS public header block (versions 1.0 to 1.4): parsed from bytes, and patched in place
 * when a tool writes LAS. Writing starts from the input's own header bytes so that fields the
 * tool does not change (GUID, system id, dates, padding) survive byte for byte. It imports no
 * WASM, so the web app's point-cloud viewer reads headers with it too (a small bundle).
 */
import { ToolError } from "@vektor/shared/tools/manifest";

/** Byte offsets of the header fields this code reads or patches (LAS 1.4 R15, table 3). */
export const H = {
  globalEncoding: 6,
  versionMajor: 24,
  versionMinor: 25,
  systemId: 26,
  software: 58,
  creationDay: 90,
  creationYear: 92,
  headerSize: 94,
  pointDataOffset: 96,
  vlrCount: 100,
  pointFormat: 104,
  recordLength: 105,
  legacyCount: 107,
  legacyByReturn: 111,
  scale: 131,
  offset: 155,
  maxX: 179,
  minX: 187,
  maxY: 195,
  minY: 203,
  maxZ: 211,
  minZ: 219,
  evlrOffset: 235,
  evlrCount: 243,
  count14: 247,
  byReturn14: 255,
} as const;

/** Smallest header of each minor version (1.0-1.2: 227, 1.3: 235, 1.4: 375). */
const MIN_HEADER_SIZE = [227, 227, 227, 235, 375];

/** Minimum record length and attribute offsets of each point data record format. */
export interface PointLayout {
  minLength: number;
  /** Offset of GPS time (f64), if the format has it. */
  time?: number;
  /** Offset of red, green, blue (u16 each), if the format has them. */
  rgb?: number;
  /** Formats 6-10: 4-bit return numbers and classification at byte 16. */
  extended: boolean;
}

/** Point data record formats 0-10. */
export const POINT_LAYOUTS: readonly PointLayout[] = [
  { minLength: 20, extended: false },
  { minLength: 28, time: 20, extended: false },
  { minLength: 26, rgb: 20, extended: false },
  { minLength: 34, time: 20, rgb: 28, extended: false },
  { minLength: 57, time: 20, extended: false },
  { minLength: 63, time: 20, rgb: 28, extended: false },
  { minLength: 30, time: 22, extended: true },
  { minLength: 36, time: 22, rgb: 30, extended: true },
  { minLength: 38, time: 22, rgb: 30, extended: true },
  { minLength: 59, time: 22, extended: true },
  { minLength: 67, time: 22, rgb: 30, extended: true },
];

export type Vec3 = [number, number, number];

/** The header fields the tools use. */
export interface LasHeader {
  versionMajor: number;
  versionMinor: number;
  headerSize: number;
  pointDataOffset: number;
  vlrCount: number;
  /** Point data record format 0-10, without the LAZ compression bits. */
  pointFormat: number;
  /** Bit 7 (or 6) of the format byte: the point data is LAZ-compressed. */
  compressed: boolean;
  recordLength: number;
  pointCount: number;
  /** Points by return number, 5 entries (15 for LAS 1.4). */
  pointsByReturn: number[];
  scale: Vec3;
  offset: Vec3;
  min: Vec3;
  max: Vec3;
  globalEncoding: number;
  systemId: string;
  software: string;
  creationDay: number;
  creationYear: number;
  /** LAS 1.4 extended VLRs: where they start (0: none) and how many. */
  evlrOffset: number;
  evlrCount: number;
}

const ascii = new TextDecoder("latin1");

/** Null-padded ASCII field, trimmed. */
export function readAscii(bytes: Uint8Array, at: number, length: number): string {
  const raw = ascii.decode(bytes.subarray(at, at + length));
  const nul = raw.indexOf("\0");
  return (nul < 0 ? raw : raw.slice(0, nul)).trim();
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Parses and sanity-checks the header of a LAS or LAZ file (INPUT_INVALID / INPUT_UNSUPPORTED).
 * `bytes` holds at least the header (or the whole file); `size` is the whole file's.
 */
export function parseLasHeader(bytes: Uint8Array, name: string, size = bytes.length): LasHeader {
  if (bytes.length < 4 || ascii.decode(bytes.subarray(0, 4)) !== "LASF") {
    throw new ToolError("INPUT_INVALID", `"${name}" is not a LAS/LAZ file (no LASF signature)`);
  }
  if (bytes.length < 227) throw new ToolError("INPUT_INVALID", `"${name}" is truncated inside its LAS header`);
  const v = view(bytes);
  const versionMajor = bytes[H.versionMajor];
  const versionMinor = bytes[H.versionMinor];
  if (versionMajor !== 1 || versionMinor > 4) {
    throw new ToolError("INPUT_UNSUPPORTED", `"${name}" is LAS ${versionMajor}.${versionMinor}; versions 1.0 to 1.4 are supported`);
  }
  const headerSize = v.getUint16(H.headerSize, true);
  if (headerSize < MIN_HEADER_SIZE[versionMinor] || headerSize > bytes.length || headerSize > size) {
    throw new ToolError("INPUT_INVALID", `"${name}" has an impossible LAS header size (${headerSize} bytes)`);
  }
  const pointDataOffset = v.getUint32(H.pointDataOffset, true);
  if (pointDataOffset < headerSize || pointDataOffset > size) {
    throw new ToolError("INPUT_INVALID", `"${name}" is truncated or damaged: point data would start at byte ${pointDataOffset} of ${size}`);
  }
  const formatByte = bytes[H.pointFormat];
  const pointFormat = formatByte & 0x3f;
  const compressed = (formatByte & 0xc0) !== 0;
  const layout = POINT_LAYOUTS[pointFormat];
  if (!layout) throw new ToolError("INPUT_UNSUPPORTED", `"${name}" uses point data record format ${pointFormat}; formats 0 to 10 are supported`);
  const recordLength = v.getUint16(H.recordLength, true);
  if (recordLength < layout.minLength) {
    throw new ToolError("INPUT_INVALID", `"${name}" declares ${recordLength}-byte points, too short for point format ${pointFormat} (${layout.minLength})`);
  }
  const is14 = versionMinor >= 4;
  const legacyCount = v.getUint32(H.legacyCount, true);
  const count14 = is14 ? Number(v.getBigUint64(H.count14, true)) : 0;
  const pointCount = is14 && count14 > 0 ? count14 : legacyCount;
  const pointsByReturn = is14
    ? Array.from({ length: 15 }, (_, i) => Number(v.getBigUint64(H.byReturn14 + 8 * i, true)))
    : Array.from({ length: 5 }, (_, i) => v.getUint32(H.legacyByReturn + 4 * i, true));
  const vec = (at: number): Vec3 => [v.getFloat64(at, true), v.getFloat64(at + 8, true), v.getFloat64(at + 16, true)];
  const scale = vec(H.scale);
  if (scale.some((s) => !(Number.isFinite(s) && s !== 0))) {
    throw new ToolError("INPUT_INVALID", `"${name}" has an invalid coordinate scale (${scale.join(", ")})`);
  }
  return {
    versionMajor,
    versionMinor,
    headerSize,
    pointDataOffset,
    vlrCount: v.getUint32(H.vlrCount, true),
    pointFormat,
    compressed,
    recordLength,
    pointCount,
    pointsByReturn,
    scale,
    offset: vec(H.offset),
    min: [v.getFloat64(H.minX, true), v.getFloat64(H.minY, true), v.getFloat64(H.minZ, true)],
    max: [v.getFloat64(H.maxX, true), v.getFloat64(H.maxY, true), v.getFloat64(H.maxZ, true)],
    globalEncoding: v.getUint16(H.globalEncoding, true),
    systemId: readAscii(bytes, H.systemId, 32),
    software: readAscii(bytes, H.software, 32),
    creationDay: v.getUint16(H.creationDay, true),
    creationYear: v.getUint16(H.creationYear, true),
    evlrOffset: is14 ? Number(v.getBigUint64(H.evlrOffset, true)) : 0,
    evlrCount: is14 ? v.getUint32(H.evlrCount, true) : 0,
  };
}

/** What a writer changes in a copied header. */
export interface HeaderPatch {
  pointDataOffset: number;
  vlrCount: number;
  pointFormat: number;
  /** Set when the point set changed: count, returns and bounds are rewritten. */
  stats?: PointStats;
  /** New start of the extended VLRs (LAS 1.4), when there are any. */
  evlrOffset?: number;
}

/** Point count, points by return (index 0 = return 1, up to 15) and bounds of a set of points. */
export interface PointStats {
  count: number;
  byReturn: number[];
  min: Vec3;
  max: Vec3;
}

/** Patches a copy of the input's header bytes for a LAS output (compression bits cleared). */
export function patchHeader(source: Uint8Array, header: LasHeader, patch: HeaderPatch): Uint8Array {
  const out = source.slice(0, header.headerSize);
  const v = view(out);
  v.setUint32(H.pointDataOffset, patch.pointDataOffset, true);
  v.setUint32(H.vlrCount, patch.vlrCount, true);
  out[H.pointFormat] = patch.pointFormat;
  const is14 = header.versionMinor >= 4;
  if (patch.evlrOffset !== undefined && is14) v.setBigUint64(H.evlrOffset, BigInt(patch.evlrOffset), true);
  const stats = patch.stats;
  if (stats) {
    const legacyFits = patch.pointFormat < 6 && stats.count <= 0xffffffff;
    v.setUint32(H.legacyCount, legacyFits ? stats.count : 0, true);
    for (let i = 0; i < 5; i++) v.setUint32(H.legacyByReturn + 4 * i, legacyFits ? stats.byReturn[i] : 0, true);
    if (is14) {
      v.setBigUint64(H.count14, BigInt(stats.count), true);
      for (let i = 0; i < 15; i++) v.setBigUint64(H.byReturn14 + 8 * i, BigInt(stats.byReturn[i]), true);
    }
    v.setFloat64(H.maxX, stats.max[0], true);
    v.setFloat64(H.minX, stats.min[0], true);
    v.setFloat64(H.maxY, stats.max[1], true);
    v.setFloat64(H.minY, stats.min[1], true);
    v.setFloat64(H.maxZ, stats.max[2], true);
    v.setFloat64(H.minZ, stats.min[2], true);
  }
  return out;
}
