import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { text } from "../../testing/run-tool";
import { countBy, drawingFixture, DWG_FIXTURES, DXF_FIXTURES, ogrFeatures, runDrawing } from "../test-support";

/** Generous: the first DWG loads the 9.5 MB engine, and CI machines can be busy. */
const SLOW = 120_000;

interface Info {
  format: string;
  version: string;
  release: string;
  units: string;
  extents: { min: number[]; max: number[] } | null;
  entityCount: number;
  entityCounts: Record<string, number>;
  layers: { name: string; color: number; rgb: string; on: boolean; frozen: boolean; entityCount: number }[];
  blocks: { name: string; anonymous: boolean; entityCount: number }[];
  layouts: string[];
}

async function info(name: string): Promise<Info> {
  const [out] = await runDrawing("drawing.info", [drawingFixture(name)]);
  expect(out.mime).toBe("application/json");
  expect(out.name).toBe(`${name.replace(/\.[^.]+$/, "")}-info.json`);
  return JSON.parse(text(out)) as Info;
}

/** Entity types whose top-level count ogr2ogr (blocks not inlined) reports one feature each, and its subclass for them. */
const OGR_SUBCLASS: Record<string, string> = {
  INSERT: "AcDbEntity:AcDbBlockReference",
  LWPOLYLINE: "AcDbEntity:AcDbPolyline",
  SPLINE: "AcDbEntity:AcDbSpline",
  ELLIPSE: "AcDbEntity:AcDbEllipse",
  HATCH: "AcDbEntity:AcDbHatch",
  CIRCLE: "AcDbEntity:AcDbCircle",
};

describe("drawing.info", () => {
  test.each(DWG_FIXTURES)("every DWG fixture is read: %s (%s)", async (name, version) => {
    const report = await info(name);
    expect(report).toMatchObject({ format: "dwg", version });
    expect(report.entityCount).toBeGreaterThan(0);
    expect(report.layers.some((l) => l.name === "0")).toBe(true);
    expect(report.layouts[0]).toBe("Model");
    expect(Object.values(report.entityCounts).reduce((a, b) => a + b, 0)).toBe(report.entityCount);
    expect(report.layers.reduce((sum, l) => sum + l.entityCount, 0)).toBe(report.entityCount);
  }, SLOW);

  test.each(DXF_FIXTURES)("DXF %s: the layers and per-type counts ogrinfo reads", async (name) => {
    const report = await info(name);
    expect(report.format).toBe("dxf");
    const ogr = ogrFeatures(name, false);
    const names = new Set(report.layers.map((l) => l.name));
    for (const layer of new Set(ogr.map((f) => f.properties.Layer!))) expect(names.has(layer), layer).toBe(true);
    const bySubclass = countBy(ogr, (f) => f.properties.SubClasses ?? "");
    if (ogr.some((f) => f.properties.SubClasses)) {
      for (const [type, subclass] of Object.entries(OGR_SUBCLASS)) expect([type, report.entityCounts[type] ?? 0]).toEqual([type, bySubclass[subclass] ?? 0]);
    }
  }, SLOW);

  test("the 2018 example as DWG (LibreDWG) and as DXF (dxf-parser) agree", async () => {
    const [dwg, dxf] = [await info("example_2018.dwg"), await info("example_2018.dxf")];
    expect(dwg).toMatchObject({ release: "AutoCAD 2018", units: "millimeters", layouts: ["Model", "Layout1", "Layout2"] });
    expect(dxf).toMatchObject({ release: "AutoCAD 2018", units: "millimeters" });
    const layerCounts = (r: Info) => Object.fromEntries(r.layers.filter((l) => !l.name.includes("LIGHTS")).map((l) => [l.name, l.on]));
    expect(layerCounts(dwg)).toEqual(layerCounts(dxf));
    // LibreDWG's converter drops REGION, LIGHT and ARC_DIMENSION; every other type counts the same.
    for (const [type, count] of Object.entries(dwg.entityCounts)) {
      if (type === "POLYLINE") continue; // the DXF adds a polyface mesh the DWG converter files elsewhere
      expect([type, dxf.entityCounts[type]]).toEqual([type, count]);
    }
    expect(dwg.extents).toEqual(dxf.extents);
    expect(dwg.blocks.find((b) => b.name === "CIRKLO_PUNKTOJ")).toMatchObject({ anonymous: false, entityCount: 13 });
    expect(dwg.layers.find((l) => l.name === "Tavolo 2")).toMatchObject({ color: 2, rgb: "#ffff00", on: true, frozen: false, entityCount: 7 });
  }, SLOW);

  test("the R2.10 drawing: its 12 entities by type, in inches-free units", async () => {
    const report = await info("r2.10-entities.dwg");
    expect(report).toMatchObject({ release: "AutoCAD R2.10", entityCount: 12 });
    expect(report.entityCounts).toEqual({ ARC: 1, ATTDEF: 1, CIRCLE: 1, INSERT: 2, LINE: 1, POINT: 2, POLYLINE: 1, SHAPE: 1, SOLID: 1, TEXT: 1 });
  }, SLOW);
});
