/**
 * Variable length records (after the header) and LAS 1.4 extended VLRs (after the points):
 * located as byte ranges so a writer can copy them unchanged, and read where a tool needs them
 * (CRS, the laszip description).
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import { readAscii, type LasHeader } from "./header";

/** One VLR or EVLR: identity and the byte range of the whole record (header + payload). */
export interface VariableRecord {
  userId: string;
  recordId: number;
  description: string;
  /** First byte of the record header. */
  start: number;
  /** First byte of the payload. */
  dataStart: number;
  /** One past the last payload byte. */
  end: number;
}

const VLR_HEADER = 54;
const EVLR_HEADER = 60;

/** The VLRs between the header and the point data. */
export function parseVlrs(bytes: Uint8Array, header: LasHeader, name: string): VariableRecord[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: VariableRecord[] = [];
  let at = header.headerSize;
  for (let i = 0; i < header.vlrCount; i++) {
    if (at + VLR_HEADER > header.pointDataOffset) {
      throw new ToolError("INPUT_INVALID", `"${name}" is damaged: VLR ${i + 1} of ${header.vlrCount} runs into the point data`);
    }
    const length = v.getUint16(at + 20, true);
    const record = {
      userId: readAscii(bytes, at + 2, 16),
      recordId: v.getUint16(at + 18, true),
      description: readAscii(bytes, at + 22, 32),
      start: at,
      dataStart: at + VLR_HEADER,
      end: at + VLR_HEADER + length,
    };
    if (record.end > header.pointDataOffset) {
      throw new ToolError("INPUT_INVALID", `"${name}" is damaged: VLR ${i + 1} of ${header.vlrCount} runs into the point data`);
    }
    records.push(record);
    at = record.end;
  }
  return records;
}

/**
 * LAS 1.4 extended VLRs (an empty list for older versions or when the file has none). `bytes`
 * holds the file from byte `base` (the whole file: 0) to its end; records keep file offsets.
 */
export function parseEvlrs(bytes: Uint8Array, header: LasHeader, name: string, base = 0): VariableRecord[] {
  if (header.evlrCount === 0 || header.evlrOffset === 0) return [];
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: VariableRecord[] = [];
  const end = base + bytes.length;
  let at = header.evlrOffset;
  for (let i = 0; i < header.evlrCount; i++) {
    if (at < base || at + EVLR_HEADER > end) throw new ToolError("INPUT_INVALID", `"${name}" is truncated inside its extended VLRs`);
    const length = Number(v.getBigUint64(at - base + 20, true));
    const record = {
      userId: readAscii(bytes, at - base + 2, 16),
      recordId: v.getUint16(at - base + 18, true),
      description: readAscii(bytes, at - base + 28, 32),
      start: at,
      dataStart: at + EVLR_HEADER,
      end: at + EVLR_HEADER + length,
    };
    if (record.end > end) throw new ToolError("INPUT_INVALID", `"${name}" is truncated inside its extended VLRs`);
    records.push(record);
    at = record.end;
  }
  return records;
}

/** The laszip VLR's identity. */
export function isLaszipVlr(record: VariableRecord): boolean {
  return record.userId === "laszip encoded" && record.recordId === 22204;
}

/** Coordinate reference system records: GeoTIFF keys (34735-34737) or OGC WKT (2111, 2112). */
export function describeCrs(records: VariableRecord[], payload: (record: VariableRecord) => Uint8Array): { geoTiffKeys: boolean; wkt: string | null } {
  const projection = records.filter((r) => r.userId === "LASF_Projection");
  const wktRecord = projection.find((r) => r.recordId === 2112);
  const wkt = wktRecord ? readAscii(payload(wktRecord), 0, wktRecord.end - wktRecord.dataStart) : null;
  return { geoTiffKeys: projection.some((r) => r.recordId === 34735), wkt: wkt || null };
}

/** The laszip VLR payload: how the points are compressed. */
export interface LaszipInfo {
  /** 0 none, 1 pointwise, 2 pointwise chunked, 3 layered chunked (LAS 1.4 formats 6-10). */
  compressor: number;
  version: string;
  /** Points per chunk; 0xFFFFFFFF means variable-sized chunks. */
  chunkSize: number;
  items: { type: number; size: number; version: number }[];
}

/** Reads the laszip VLR (INPUT_INVALID if it is cut short). */
export function parseLaszip(bytes: Uint8Array, record: VariableRecord, name: string): LaszipInfo {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = record.dataStart;
  if (record.end - at < 34) throw new ToolError("INPUT_INVALID", `"${name}" has a damaged laszip VLR`);
  const itemCount = v.getUint16(at + 32, true);
  if (record.end - at < 34 + 6 * itemCount) throw new ToolError("INPUT_INVALID", `"${name}" has a damaged laszip VLR`);
  return {
    compressor: v.getUint16(at, true),
    version: `${bytes[at + 4]}.${bytes[at + 5]}r${v.getUint16(at + 6, true)}`,
    chunkSize: v.getUint32(at + 12, true),
    items: Array.from({ length: itemCount }, (_, i) => ({
      type: v.getUint16(at + 34 + 6 * i, true),
      size: v.getUint16(at + 36 + 6 * i, true),
      version: v.getUint16(at + 38 + 6 * i, true),
    })),
  };
}
