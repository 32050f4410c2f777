import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { expectToolError, text } from "../../testing/run-tool";
import { cadFixture, runCad } from "../test-support";

/** Generous: the first test loads the WASM engine, and CI machines can be busy. */
const SLOW = 60_000;

interface Box {
  min: number[];
  max: number[];
  size: number[];
}
interface Info {
  sourceFormat: string;
  unit: string;
  partCount: number;
  totalTriangles: number;
  totalVertices: number;
  boundingBox: Box;
  colors: string[];
  mesh: { linearDeflection: number; angularDeflection: number };
  parts: { name: string; path: string[]; triangles: number; vertices: number; faces: number; color: string | null; faceColors: string[]; boundingBox: Box }[];
}

async function info(path: string, params: Record<string, unknown> = {}): Promise<Info> {
  const [out] = await runCad("cad.info", [cadFixture(path)], params);
  expect(out.mime).toBe("application/json");
  expect(out.name).toBe(`${path.split("/").pop()?.replace(/\.[^.]+$/, "")}-info.json`);
  return JSON.parse(text(out)) as Info;
}

describe("cad.info", () => {
  test("the 10 mm cube as STEP and as IGES: 12 triangles, a 10 mm box", async () => {
    const step = await info("cube-10x10mm/Cube 10x10.stp");
    expect(step).toMatchObject({ sourceFormat: "step", unit: "mm", partCount: 1, totalTriangles: 12, totalVertices: 24 });
    expect(step.boundingBox.size).toEqual([10, 10, 10]);
    expect(step.parts[0]).toMatchObject({ name: "Cube 10x10", path: [], triangles: 12, faces: 6 });
    const iges = await info("cube-10x10mm/Cube 10x10.igs");
    expect(iges).toMatchObject({ sourceFormat: "iges", unit: "mm", partCount: 1, totalTriangles: 12 });
    expect(iges.boundingBox.size).toEqual([10, 10, 10]);
    expect(iges.parts[0].name).toBe("Solid1");
  }, SLOW);

  test("an assembly: parts with paths, colours, per-part triangles summing to the total", async () => {
    const report = await info("cax-if/dm1-id-214.stp");
    expect(report.partCount).toBe(7);
    expect(report.parts.map((p) => p.name)).toEqual(["l-bracket", "bolt", "bolt", "bolt", "nut", "nut", "nut"]);
    expect(report.parts.every((p) => p.path.join("/") === "dm1")).toBe(true);
    // occt-import-js's own test: linear colours [1,0,0], [1,0.393,0] x3, [1,0.089,0] x3 (shown as sRGB hex)
    expect(report.parts.map((p) => p.color)).toEqual(["#ff0000", "#ffa800", "#ffa800", "#ffa800", "#ff5400", "#ff5400", "#ff5400"]);
    expect(report.colors).toEqual(["#ff0000", "#ff5400", "#ffa800"]);
    expect(report.totalTriangles).toBe(report.parts.reduce((sum, p) => sum + p.triangles, 0));
    expect(report.boundingBox).toEqual({ min: [0, -27, 0], max: [50, 60, 100], size: [50, 87, 100] });
    for (const p of report.parts) {
      for (let a = 0; a < 3; a++) {
        expect(p.boundingBox.min[a]).toBeGreaterThanOrEqual(report.boundingBox.min[a]);
        expect(p.boundingBox.max[a]).toBeLessThanOrEqual(report.boundingBox.max[a]);
      }
    }
  }, SLOW);

  test("a BREP: 18 solids with the triangle counts occt-import-js's tests know", async () => {
    const report = await info("cax-if-brep/as1_pe_203.brep");
    expect(report.sourceFormat).toBe("brep");
    expect(report.unit).toBe("unspecified");
    expect(report.parts.map((p) => p.triangles)).toEqual([1980, 1356, 612, 360, 612, 360, 612, 360, 1356, 612, 360, 612, 360, 612, 360, 300, 360, 360].map((n) => n / 3));
    expect(report.totalTriangles).toBe(3848);
  }, SLOW);

  test("face colours are listed beside the part colour", async () => {
    const report = await info("cube-fcstd/cube.step");
    expect(report.parts[0].color).toBe("#cccccc");
    expect(report.parts[0].faceColors).toEqual(["#ff0000", "#0000ff", "#00aa00"]);
    expect(report.colors).toEqual(["#0000ff", "#00aa00", "#cccccc", "#ff0000"]);
  }, SLOW);

  test("mesh fineness is reported and changes the counts", async () => {
    const coarse = await info("rounded-cube/rounded-cube.step", { linearDeflection: 0.1 });
    const fine = await info("rounded-cube/rounded-cube.step");
    expect(coarse.mesh).toEqual({ linearDeflection: 0.1, angularDeflection: 0.5 });
    expect(coarse.totalVertices).toBe(54);
    expect(fine.totalVertices).toBe(98);
    expect(fine.boundingBox.size).toEqual([10, 10, 10]);
  }, SLOW);

  test("reports bad inputs with their codes", async () => {
    await expectToolError(runCad("cad.info", [{ name: "x.step", bytes: new TextEncoder().encode("solid ascii stl\nendsolid\n") }]), "INPUT_INVALID", /not a STEP, IGES or BREP/);
    await expectToolError(runCad("cad.info", [cadFixture("cax-if/s1-c5-214/s1-c5-214.stp")]), "INPUT_EMPTY", /external files/);
    await expectToolError(runCad("cad.info", [cadFixture("cube-10x10mm/Cube 10x10.stp")], { angularDeflection: 3 }), "PARAMS_INVALID", /angularDeflection/);
  }, SLOW);
});
