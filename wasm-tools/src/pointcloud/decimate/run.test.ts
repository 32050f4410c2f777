import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { pointcloudFixture } from "../../testing/fixtures";
import { refRead, type RefLas } from "../../testing/las-reference";
import { expectToolError, runTool } from "../../testing/run-tool";
import { keptIndexes } from "./run";

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** Expected header numbers for the points `indexes` of `ref`, computed from the raw records here. */
function expected(ref: RefLas, indexes: number[]) {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  const byReturn = [0, 0, 0, 0, 0];
  for (const i of indexes) {
    ref.xyz(i).forEach((c, k) => {
      min[k] = Math.min(min[k], c);
      max[k] = Math.max(max[k], c);
    });
    const r = ref.record(i)[14] & 7;
    if (r >= 1 && r <= 5) byReturn[r - 1]++;
  }
  return { min, max, byReturn };
}

describe("pointcloud.decimate", () => {
  test("every 10th point of a LAS: records, count, returns and bounds", async () => {
    const reference = pointcloudFixture("autzen_trim.las").bytes;
    const [out] = await runTool("pointcloud.decimate", [{ name: "autzen_trim.las", bytes: reference }], { every: 10 });
    expect(out.name).toBe("autzen_trim-decimated.las");
    const ref = refRead(reference);
    const las = refRead(out.bytes);
    const indexes = Array.from({ length: 11000 }, (_, k) => k * 10);
    expect(las.count).toBe(11000);
    expect(las.legacyCount).toBe(11000);
    expect(out.bytes.length).toBe(ref.offsetToPoints + 11000 * 34);
    expect(same(out.bytes.subarray(227, ref.offsetToPoints), reference.subarray(227, ref.offsetToPoints))).toBe(true); // VLRs kept
    let mismatched = 0;
    indexes.forEach((index, k) => {
      if (!same(las.record(k), ref.record(index))) mismatched++;
    });
    expect(mismatched).toBe(0);
    const want = expected(ref, indexes);
    expect(las.min).toEqual(want.min);
    expect(las.max).toEqual(want.max);
    expect(las.legacyByReturn).toEqual(want.byReturn);
    expect(las.legacyByReturn).not.toEqual(ref.legacyByReturn);
  });

  test("LAZ in gives the same LAS as the LAS it decompresses to", async () => {
    const [fromLaz] = await runTool("pointcloud.decimate", [pointcloudFixture("autzen_trim.laz")], { every: 7 });
    const [fromLas] = await runTool("pointcloud.decimate", [pointcloudFixture("autzen_trim.las")], { every: 7 });
    expect(refRead(fromLaz.bytes).formatByte).toBe(3);
    expect(same(fromLaz.bytes, fromLas.bytes)).toBe(true);
  });

  test("keeping every point reproduces the file, bounds up to the last bit of rounding", async () => {
    const reference = pointcloudFixture("autzen_trim.las").bytes;
    const [out] = await runTool("pointcloud.decimate", [{ name: "a.las", bytes: reference }], { every: 1 });
    const bounds = new Set(Array.from({ length: 48 }, (_, k) => 179 + k));
    const differing = [...reference.keys()].filter((i) => out.bytes[i] !== reference[i]);
    expect(out.bytes.length).toBe(reference.length);
    expect(differing.filter((i) => !bounds.has(i))).toEqual([]);
    // PDAL wrote maxX as 637179.2200000001; X * scale + offset (the spec's formula) gives 637179.22.
    const mine = refRead(out.bytes);
    const ref = refRead(reference);
    for (let k = 0; k < 3; k++) {
      expect(mine.min[k]).toBeCloseTo(ref.min[k], 6);
      expect(mine.max[k]).toBeCloseTo(ref.max[k], 6);
    }
  });

  test("a fraction keeps that share, evenly spaced, LAS 1.4 counts included", async () => {
    const [out] = await runTool("pointcloud.decimate", [pointcloudFixture("point-time-1.4.las.laz")], { fraction: 0.25 });
    const las = refRead(out.bytes);
    expect(las.version).toBe("1.4");
    expect(las.count).toBe(266); // round(1065 * 0.25)
    expect(las.legacyCount).toBe(266); // format 1 keeps the legacy field too
    expect(keptIndexes(1065, 10, 0.25).slice(0, 4)).toEqual([0, 4, 8, 12]);
    expect(keptIndexes(5, 10, 0.01)).toEqual([0]);
    expect(keptIndexes(25, 10)).toEqual([0, 10, 20]);
  });

  test("INPUT_EMPTY for a cloud without points, PARAMS_INVALID for impossible params", async () => {
    const source = pointcloudFixture("Haystack_Rock.las").bytes;
    const ref = refRead(source);
    const empty = source.slice(0, ref.offsetToPoints);
    new DataView(empty.buffer).setUint32(107, 0, true);
    await expectToolError(runTool("pointcloud.decimate", [{ name: "empty.las", bytes: empty }]), "INPUT_EMPTY", /no points/);
    await expectToolError(runTool("pointcloud.decimate", [{ name: "cut.las", bytes: source.slice(0, 100_000) }]), "INPUT_INVALID", /truncated/);
    await expectToolError(runTool("pointcloud.decimate", [{ name: "a.las", bytes: source }], { every: 0 }), "PARAMS_INVALID", /every/);
    await expectToolError(runTool("pointcloud.decimate", [{ name: "a.las", bytes: source }], { fraction: 0 }), "PARAMS_INVALID", /fraction/);
  });
});
