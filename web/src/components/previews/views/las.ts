/**
 * LAS point records (versions 1.0 to 1.4) read into what the point-cloud viewer draws: positions
 * relative to the cloud's centre (float32 cannot hold projected coordinates to the centimetre),
 * and a colour per point, RGB when the format has it, else by height. Every n-th record is kept
 * so a view holds at most `maxPoints` points.
 */

export interface Cloud {
  positions: Float32Array;
  colors: Float32Array;
  /** Points in the file (before decimation). */
  total: number;
}

/** Offset of red, green, blue (u16 each) in point data record formats 0-10. */
const RGB_OFFSET: (number | undefined)[] = [undefined, undefined, 20, 28, undefined, 28, undefined, 30, 30, undefined, 30];

interface Header {
  dataOffset: number;
  format: number;
  recordLength: number;
  count: number;
  scale: [number, number, number];
  offset: [number, number, number];
  min: [number, number, number];
  max: [number, number, number];
}

export function readHeader(bytes: Uint8Array): Header {
  if (bytes.byteLength < 227 || String.fromCharCode(...bytes.subarray(0, 4)) !== "LASF") throw new Error("not a LAS file");
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const f64 = (at: number) => v.getFloat64(at, true);
  const triple = (at: number): [number, number, number] => [f64(at), f64(at + 8), f64(at + 16)];
  const legacy = v.getUint32(107, true);
  const minor = v.getUint8(25);
  const count = legacy === 0 && minor >= 4 && bytes.byteLength >= 255 ? Number(v.getBigUint64(247, true)) : legacy;
  return {
    dataOffset: v.getUint32(96, true),
    // Bits 6-7 flag compression (LAZ); the format is the low bits.
    format: v.getUint8(104) & 0x3f,
    recordLength: v.getUint16(105, true),
    count,
    scale: triple(131),
    offset: triple(155),
    max: [f64(179), f64(195), f64(211)],
    min: [f64(187), f64(203), f64(219)],
  };
}

export function readCloud(bytes: Uint8Array, maxPoints: number): Cloud {
  const h = readHeader(bytes);
  if (h.format > 10 || h.recordLength < 20) throw new Error(`unsupported point format ${h.format}`);
  const available = Math.min(h.count, Math.floor((bytes.byteLength - h.dataOffset) / h.recordLength));
  const step = Math.max(1, Math.ceil(available / maxPoints));
  const n = Math.floor((available + step - 1) / step);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const center = [0, 1, 2].map((i) => (h.min[i]! + h.max[i]!) / 2);
  const positions = new Float32Array(n * 3);
  const rgb = RGB_OFFSET[h.format];
  const raw = rgb === undefined ? null : new Uint16Array(n * 3);
  for (let k = 0; k < n; k++) {
    const at = h.dataOffset + k * step * h.recordLength;
    for (let i = 0; i < 3; i++) positions[k * 3 + i] = v.getInt32(at + i * 4, true) * h.scale[i]! + h.offset[i]! - center[i]!;
    if (raw) for (let i = 0; i < 3; i++) raw[k * 3 + i] = v.getUint16(at + rgb! + i * 2, true);
  }
  const colors = raw && raw.some((c) => c > 0) ? rgbColors(raw) : heightColors(positions, h.max[2]! - h.min[2]!);
  return { positions, colors, total: available };
}

/** LAS colours are 16-bit, though some writers store 8-bit values. */
function rgbColors(raw: Uint16Array): Float32Array {
  const full = raw.some((c) => c > 255) ? 65535 : 255;
  return Float32Array.from(raw, (c) => c / full);
}

/** Blue (low) through green to red (high). */
function heightColors(positions: Float32Array, range: number): Float32Array {
  const colors = new Float32Array(positions.length);
  const half = (range || 1) / 2;
  for (let k = 0; k < positions.length; k += 3) {
    const t = Math.min(1, Math.max(0, (positions[k + 2]! + half) / (2 * half)));
    colors[k] = Math.min(1, 2 * t);
    colors[k + 1] = 1 - Math.abs(2 * t - 1) * 0.6;
    colors[k + 2] = Math.min(1, 2 * (1 - t));
  }
  return colors;
}
