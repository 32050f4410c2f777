/**
 * A deliberately separate, minimal LAS reader for checking tool outputs: straight from the
 * LAS 1.2/1.4 spec's byte offsets, sharing no code with src/pointcloud/las.
 */
export interface RefLas {
  version: string;
  headerSize: number;
  offsetToPoints: number;
  vlrCount: number;
  formatByte: number;
  recordLength: number;
  legacyCount: number;
  legacyByReturn: number[];
  count: number;
  scale: number[];
  offset: number[];
  min: number[];
  max: number[];
  /** record i's raw bytes */
  record(i: number): Uint8Array;
  /** record i's scaled x, y, z */
  xyz(i: number): [number, number, number];
}

/** Parses an uncompressed LAS file's header and gives access to its records. */
export function refRead(bytes: Uint8Array): RefLas {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const f64 = (at: number) => v.getFloat64(at, true);
  const minor = bytes[25];
  const offsetToPoints = v.getUint32(96, true);
  const recordLength = v.getUint16(105, true);
  const legacyCount = v.getUint32(107, true);
  const count = minor >= 4 ? Number(v.getBigUint64(247, true)) : legacyCount;
  const scale = [f64(131), f64(139), f64(147)];
  const offset = [f64(155), f64(163), f64(171)];
  return {
    version: `${bytes[24]}.${minor}`,
    headerSize: v.getUint16(94, true),
    offsetToPoints,
    vlrCount: v.getUint32(100, true),
    formatByte: bytes[104],
    recordLength,
    legacyCount,
    legacyByReturn: [0, 1, 2, 3, 4].map((i) => v.getUint32(111 + 4 * i, true)),
    count,
    scale,
    offset,
    max: [f64(179), f64(195), f64(211)],
    min: [f64(187), f64(203), f64(219)],
    record: (i) => bytes.subarray(offsetToPoints + i * recordLength, offsetToPoints + (i + 1) * recordLength),
    xyz: (i) => {
      const at = offsetToPoints + i * recordLength;
      return [0, 1, 2].map((k) => v.getInt32(at + 4 * k, true) * scale[k] + offset[k]) as [number, number, number];
    },
  };
}
