import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { pointcloudFixture } from "../../testing/fixtures";
import { refRead } from "../../testing/las-reference";
import { expectToolError, runTool, text } from "../../testing/run-tool";

interface Info {
  version: string;
  compressed: boolean;
  pointFormat: number;
  pointRecordLength: number;
  extraBytesPerPoint: number;
  pointCount: number;
  pointsByReturn: number[];
  bounds: { min: number[]; max: number[] };
  scale: number[];
  offset: number[];
  crs: { present: boolean; geoTiffKeys: boolean; wkt: string | null };
  hasRgb: boolean;
  hasGpsTime: boolean;
  vlrs: { userId: string; recordId: number }[];
  laszip: { compressor: number; chunkSize: number } | null;
}

async function info(file: string): Promise<Info> {
  const [out] = await runTool("pointcloud.info", [pointcloudFixture(file)]);
  expect(out.mime).toBe("application/json");
  return JSON.parse(text(out)) as Info;
}

describe("pointcloud.info", () => {
  test("reports a LAZ file's header, CRS and compression", async () => {
    const report = await info("autzen_trim.laz");
    const ref = refRead(pointcloudFixture("autzen_trim.las").bytes);
    expect(report).toMatchObject({ version: "1.2", compressed: true, pointFormat: 3, pointRecordLength: 34, extraBytesPerPoint: 0, pointCount: 110000, hasRgb: true, hasGpsTime: true });
    expect(report.bounds).toEqual({ min: ref.min, max: ref.max });
    expect(report.scale).toEqual(ref.scale);
    expect(report.offset).toEqual(ref.offset);
    expect(report.pointsByReturn.slice(0, 5)).toEqual(ref.legacyByReturn);
    expect(report.crs.present).toBe(true);
    expect(report.crs.geoTiffKeys).toBe(true);
    expect(report.crs.wkt).toContain("NAD_1983_HARN_Lambert_Conformal_Conic");
    expect(report.laszip).toMatchObject({ compressor: 2, chunkSize: 50000 });
    expect(report.vlrs.map((v) => v.recordId)).toEqual([34735, 34736, 34737, 2112, 2112, 22204]);
  });

  test("tells formats apart: no colour or time, extra bytes, LAS 1.4", async () => {
    const haystack = await info("Haystack_Rock.las");
    expect(haystack).toMatchObject({ version: "1.2", compressed: false, pointFormat: 0, pointCount: 21932, hasRgb: false, hasGpsTime: false, laszip: null });
    expect(haystack.crs).toEqual({ present: true, geoTiffKeys: true, wkt: null });
    expect((await info("extrabytes.laz")).extraBytesPerPoint).toBe(27);
    expect(await info("point-time-1.4.las.laz")).toMatchObject({ version: "1.4", pointFormat: 1, pointCount: 1065, hasGpsTime: true, hasRgb: false });
    expect((await info("point-color-time.las")).crs.present).toBe(true);
  });

  test("rejects files that are not LAS and cut headers", async () => {
    const { bytes } = pointcloudFixture("Haystack_Rock.las");
    await expectToolError(runTool("pointcloud.info", [{ name: "a.las", bytes: new TextEncoder().encode("ply\nformat ascii 1.0\n") }]), "INPUT_INVALID", /LASF/);
    await expectToolError(runTool("pointcloud.info", [{ name: "cut.las", bytes: bytes.slice(0, 200) }]), "INPUT_INVALID", /truncated/);
    await expectToolError(runTool("pointcloud.info", [{ name: "cut.las", bytes: bytes.slice(0, 300) }]), "INPUT_INVALID", /truncated or damaged/);
  });
});
