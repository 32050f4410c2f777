import { readFileSync } from "node:fs";
import { parseLasHeader } from "@vektor/wasm-tools/pointcloud/las/header";
import { describe, expect, it } from "vitest";
import { readCloud } from "./las";

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../../../../fixtures/pointcloud/${name}`, import.meta.url)));

describe("readCloud", () => {
  it("keeps every n-th point of the file, centred, in the file's own colours", () => {
    const bytes = fixture("point-color-time.las");
    const header = parseLasHeader(bytes, "p.las");
    const all = readCloud(bytes, 1_000_000, "p.las");
    expect(all.total).toBe(header.pointCount);
    expect(all.positions.length).toBe(3 * header.pointCount);
    const few = readCloud(bytes, 100, "p.las");
    expect(few.total).toBe(header.pointCount);
    expect(few.positions.length / 3).toBeLessThanOrEqual(100);
    expect(few.positions.subarray(0, 3)).toEqual(all.positions.subarray(0, 3));
    for (let axis = 0; axis < 3; axis++) {
      const half = (header.max[axis]! - header.min[axis]!) / 2 + 1e-3;
      for (let k = axis; k < all.positions.length; k += 3) expect(Math.abs(all.positions[k]!)).toBeLessThanOrEqual(half);
    }
    expect(all.colors.every((c) => c >= 0 && c <= 1)).toBe(true);
  });

  it("refuses a file that is not LAS in the point-cloud tools' own words", () => {
    expect(() => readCloud(new TextEncoder().encode("not a point cloud"), 10, "x.las")).toThrow('"x.las" is not a LAS/LAZ file (no LASF signature)');
  });
});
