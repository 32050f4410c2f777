/**
 * LAS point records (versions 1.0 to 1.4) read into what the point-cloud viewer draws: positions
 * relative to the cloud's centre (float32 cannot hold projected coordinates to the centimetre),
 * and a colour per point, RGB when the format has it, else by height. Every n-th record is kept
 * so a view holds at most `maxPoints` points. The header is read by the point-cloud tools' own
 * parser (plain TypeScript, no WASM), so a file the tools refuse is refused here in their words.
 */
import { parseLasHeader, POINT_LAYOUTS } from "@vektor/wasm-tools/pointcloud/las/header";

export interface Cloud {
  positions: Float32Array;
  colors: Float32Array;
  /** Points in the file (before decimation). */
  total: number;
}

/** The points of the LAS file `name` to draw, at most `maxPoints` of them (every n-th record). */
export function readCloud(bytes: Uint8Array, maxPoints: number, name: string): Cloud {
  const h = parseLasHeader(bytes, name);
  const available = Math.min(h.pointCount, Math.floor((bytes.byteLength - h.pointDataOffset) / h.recordLength));
  const step = Math.max(1, Math.ceil(available / maxPoints));
  const n = Math.floor((available + step - 1) / step);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const center = [0, 1, 2].map((i) => (h.min[i]! + h.max[i]!) / 2);
  const positions = new Float32Array(n * 3);
  const rgb = POINT_LAYOUTS[h.pointFormat]!.rgb;
  const raw = rgb === undefined ? null : new Uint16Array(n * 3);
  for (let k = 0; k < n; k++) {
    const at = h.pointDataOffset + k * step * h.recordLength;
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
