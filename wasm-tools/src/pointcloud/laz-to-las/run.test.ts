import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { ToolError } from "@vektor/shared/tools/manifest";
import { pointcloudFixture } from "../../testing/fixtures";
import { refRead } from "../../testing/las-reference";
import { expectToolError, runTool } from "../../testing/run-tool";

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** A copy of `bytes` with `count` bytes from `at` overwritten by a fixed pseudo-random pattern. */
function damaged(bytes: Uint8Array, at: number, count: number): Uint8Array {
  const copy = bytes.slice();
  for (let i = at; i < at + count; i++) copy[i] = (i * 7919 + 13) & 0xff;
  return copy;
}

describe("pointcloud.laz-to-las", () => {
  test("autzen_trim.laz decompresses byte for byte to the reference autzen_trim.las", async () => {
    const [out] = await runTool("pointcloud.laz-to-las", [pointcloudFixture("autzen_trim.laz")]);
    const reference = pointcloudFixture("autzen_trim.las").bytes;
    expect(out.name).toBe("autzen_trim.las");
    expect(out.mime).toBe("application/vnd.las");
    expect(out.bytes.length).toBe(reference.length);
    expect(same(out.bytes, reference)).toBe(true);
  });

  test("point-color-time.las.laz gives the reference's point records and VLRs", async () => {
    const [out] = await runTool("pointcloud.laz-to-las", [pointcloudFixture("point-color-time.las.laz")]);
    expect(out.name).toBe("point-color-time.las");
    const reference = pointcloudFixture("point-color-time.las").bytes;
    const mine = refRead(out.bytes);
    const ref = refRead(reference);
    expect(mine.formatByte).toBe(3);
    expect(mine.offsetToPoints).toBe(ref.offsetToPoints);
    expect(same(out.bytes.subarray(227), reference.subarray(227))).toBe(true); // VLRs + every point
  });

  test("LAS 1.4 and extra-bytes files decompress to consistent LAS", async () => {
    for (const [file, version, format, length] of [
      ["point-time-1.4.las.laz", "1.4", 1, 28],
      ["extrabytes.laz", "1.2", 3, 61],
    ] as const) {
      const input = pointcloudFixture(file);
      const [out] = await runTool("pointcloud.laz-to-las", [input]);
      const las = refRead(out.bytes);
      const laz = refRead(input.bytes);
      expect(las.version).toBe(version);
      expect(las.formatByte).toBe(format);
      expect(las.recordLength).toBe(length);
      expect(las.count).toBe(1065);
      expect(las.vlrCount).toBe(laz.vlrCount - 1);
      expect(out.bytes.length).toBe(las.offsetToPoints + las.count * length);
      let outside = 0;
      for (let i = 0; i < las.count; i++) {
        const p = las.xyz(i);
        if (p.some((c, k) => c < las.min[k] - las.scale[k] || c > las.max[k] + las.scale[k])) outside++;
      }
      expect(outside).toBe(0); // garbage decoding would scatter points outside the header's bounds
    }
  });

  test("a damaged chunk, a cut file or a broken chunk table is INPUT_INVALID, and the decoder recovers", async () => {
    const { bytes } = pointcloudFixture("autzen_trim.laz");
    const cases = {
      "middle-chunk.laz": damaged(bytes, 300_000, 500),
      "first-chunk.laz": damaged(bytes, 2200, 200),
      "cut.laz": bytes.slice(0, 400_000),
      "chunk-table.laz": damaged(bytes, bytes.length - 20, 20),
    };
    for (const [name, broken] of Object.entries(cases)) {
      const started = performance.now();
      await expectToolError(runTool("pointcloud.laz-to-las", [{ name, bytes: broken }]), "INPUT_INVALID", new RegExp(name.replace(".", "\\.")));
      expect(performance.now() - started).toBeLessThan(5000);
    }
    const [out] = await runTool("pointcloud.laz-to-las", [pointcloudFixture("autzen_trim.laz")]);
    expect(same(out.bytes, pointcloudFixture("autzen_trim.las").bytes)).toBe(true);
  });

  test("can be cancelled mid-decode, and decodes again afterwards", async () => {
    const controller = new AbortController();
    const { execute } = await import("../../runtime/execute");
    const work = execute("pointcloud.laz-to-las", [pointcloudFixture("autzen_trim.laz")], {}, {
      signal: controller.signal,
      onProgress: (fraction) => {
        if (fraction > 0 && fraction < 1) controller.abort();
      },
    });
    const error = await work.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe("CANCELLED");
    const [out] = await runTool("pointcloud.laz-to-las", [pointcloudFixture("point-color-time.las.laz")]);
    expect(refRead(out.bytes).count).toBe(1065);
  });

  test("rejects LAS that is not compressed and files that are not LAS at all", async () => {
    await expectToolError(runTool("pointcloud.laz-to-las", [pointcloudFixture("Haystack_Rock.las")]), "INPUT_INVALID", /already uncompressed/);
    await expectToolError(runTool("pointcloud.laz-to-las", [{ name: "x.laz", bytes: new TextEncoder().encode("PK\u0003\u0004 not a laz") }]), "INPUT_INVALID", /LASF/);
  });
});
