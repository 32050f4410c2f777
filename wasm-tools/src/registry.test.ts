import "./testing/node-host";
import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { checkRegistry, getTool, listManifests, TOOL_ENTRIES, type ToolEntry } from "./registry";
import { checkParams } from "./runtime/params";

const manifest = (over: Partial<ToolManifest> = {}): ToolManifest => ({
  slug: "pdf.example",
  family: "pdf",
  title: "Example",
  description: "An example",
  io: { accepts: ["pdf"], produces: ["pdf"] },
  params: Type.Object({}),
  deterministic: true,
  ...over,
});
const entry = (over: Partial<ToolManifest> = {}): ToolEntry => ({ manifest: manifest(over), load: async () => ({ run: async () => [] }) });

describe("registry", () => {
  test("lists every registered tool, each found by its slug", () => {
    const slugs = listManifests().map((m) => m.slug);
    expect([...slugs].sort()).toEqual([
      "pdf.compress",
      "pdf.merge",
      "pdf.split",
      "pdf.rotate",
      "pdf.metadata",
      "pdf.render-png",
      "pdf.extract-text",
      "pointcloud.info",
      "pointcloud.laz-to-las",
      "pointcloud.decimate",
      "pointcloud.convert",
      "pcb.gerber-to-svg",
      "pcb.render-board",
      "pcb.info",
      "media.transcode",
      "media.thumbnail",
      "gis.convert",
      "gis.reproject",
      "gis.raster-convert",
      "gis.info",
      "cad.convert",
      "cad.info",
      "bim.ifc-to-glb",
      "bim.ifc-properties",
      "bim.ifc-info",
      "drawing.info",
      "drawing.to-svg",
      "drawing.to-geojson",
      "drawing.to-pdf",
      "drawing.to-dxf",
      "mesh.info",
      "mesh.convert",
    ].sort());
    for (const slug of slugs) expect(getTool(slug)?.manifest.slug).toBe(slug);
    expect(getTool("pdf.nope")).toBeUndefined();
  });

  test("every manifest is complete and its defaults satisfy its own schema", () => {
    for (const m of listManifests()) {
      expect(m.title.length).toBeGreaterThan(3);
      expect(m.description.length).toBeGreaterThan(20);
      expect(m.params.additionalProperties).toBe(false);
      const checked = checkParams(m.params, {});
      expect(checked.ok).toBe(true);
      expect(JSON.parse(JSON.stringify(m))).toMatchObject({ slug: m.slug, params: { type: "object" } }); // serialisable as-is for the API
    }
  });

  test("every entry loads a run function", async () => {
    for (const { manifest: m, load } of TOOL_ENTRIES) {
      const mod = await load();
      expect(typeof mod.run, m.slug).toBe("function");
    }
  });

  test("start-up check rejects duplicates, malformed slugs, wrong families and unknown formats", () => {
    expect(() => checkRegistry([entry(), entry({ slug: "pdf.other" })])).not.toThrow();
    expect(() => checkRegistry([entry(), entry()])).toThrow(/registered twice/);
    expect(() => checkRegistry([entry({ slug: "compress" })])).toThrow(/<family>\.<operation>/);
    expect(() => checkRegistry([entry({ slug: "pdf.Compress_All" })])).toThrow(/<family>\.<operation>/);
    expect(() => checkRegistry([entry({ slug: "cad.compress" })])).toThrow(/family "pdf"/);
    expect(() => checkRegistry([entry({ io: { accepts: ["pdf"], produces: ["docx" as "pdf"] } })])).toThrow(/unknown format "docx"/);
    expect(() => checkRegistry([entry({ io: { accepts: ["pdf"], produces: ["pdf"], minInputs: 3, maxInputs: 2 } })])).toThrow(/input count/);
  });
});
