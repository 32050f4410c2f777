/**
 * Reading attributes out of raw point records: scaled coordinates, returns, classification,
 * colour and time, per the record format's layout. Pure arithmetic over a DataView.
 */
import type { LasHeader, PointLayout, PointStats, Vec3 } from "./header";

/** What reading a record needs: the header's scale, offset and record length, and the format's layout. */
export interface RecordFormat {
  header: LasHeader;
  layout: PointLayout;
}

/** Fast accessors over one cloud's point records. */
export interface PointReader {
  count: number;
  x(i: number): number;
  y(i: number): number;
  z(i: number): number;
  intensity(i: number): number;
  returnNumber(i: number): number;
  numberOfReturns(i: number): number;
  classification(i: number): number;
  /** GPS time, or undefined when the format has none. */
  time?: (i: number) => number;
  /** Raw 16-bit red, green, blue, or undefined when the format has no colour. */
  rgb?: (i: number) => [number, number, number];
}

/** Accessors for `points`, records of `cloud`'s format. */
export function pointReader(cloud: RecordFormat, points: Uint8Array): PointReader {
  const v = new DataView(points.buffer, points.byteOffset, points.byteLength);
  const len = cloud.header.recordLength;
  const [sx, sy, sz] = cloud.header.scale;
  const [ox, oy, oz] = cloud.header.offset;
  const { extended, time, rgb } = cloud.layout;
  return {
    count: Math.floor(points.length / len),
    x: (i) => v.getInt32(i * len, true) * sx + ox,
    y: (i) => v.getInt32(i * len + 4, true) * sy + oy,
    z: (i) => v.getInt32(i * len + 8, true) * sz + oz,
    intensity: (i) => v.getUint16(i * len + 12, true),
    returnNumber: extended ? (i) => points[i * len + 14] & 0x0f : (i) => points[i * len + 14] & 0x07,
    numberOfReturns: extended ? (i) => points[i * len + 14] >> 4 : (i) => (points[i * len + 14] >> 3) & 0x07,
    classification: extended ? (i) => points[i * len + 16] : (i) => points[i * len + 15] & 0x1f,
    time: time === undefined ? undefined : (i) => v.getFloat64(i * len + time, true),
    rgb: rgb === undefined ? undefined : (i) => [v.getUint16(i * len + rgb, true), v.getUint16(i * len + rgb + 2, true), v.getUint16(i * len + rgb + 4, true)],
  };
}

/** Count, points by return (15 slots) and scaled bounds, gathered a block of records at a time. */
export class StatsGatherer {
  private readonly lo = [Infinity, Infinity, Infinity];
  private readonly hi = [-Infinity, -Infinity, -Infinity];
  private readonly byReturn = new Array<number>(15).fill(0);
  private count = 0;

  constructor(private readonly cloud: RecordFormat) {}

  add(points: Uint8Array): void {
    const r = pointReader(this.cloud, points);
    const v = new DataView(points.buffer, points.byteOffset, points.byteLength);
    const len = this.cloud.header.recordLength;
    const { lo, hi } = this;
    for (let i = 0; i < r.count; i++) {
      for (let axis = 0; axis < 3; axis++) {
        const n = v.getInt32(i * len + 4 * axis, true);
        if (n < lo[axis]) lo[axis] = n;
        if (n > hi[axis]) hi[axis] = n;
      }
      const ret = r.returnNumber(i);
      if (ret >= 1 && ret <= 15) this.byReturn[ret - 1]++;
    }
    this.count += r.count;
  }

  stats(): PointStats {
    const { scale, offset } = this.cloud.header;
    const scaled = (ints: number[]): Vec3 => [ints[0] * scale[0] + offset[0], ints[1] * scale[1] + offset[1], ints[2] * scale[2] + offset[2]];
    const { count, byReturn } = this;
    return count === 0 ? { count, byReturn, min: [0, 0, 0], max: [0, 0, 0] } : { count, byReturn, min: scaled(this.lo), max: scaled(this.hi) };
  }
}

/** Decimal places that show every step of a coordinate scale (0.01 -> 2). */
export function decimalsFor(scale: number): number {
  return Math.max(0, Math.min(12, Math.ceil(-Math.log10(Math.abs(scale)) - 1e-9)));
}
