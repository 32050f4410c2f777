/**
 * Test-only helpers for the drawing family: LibreDWG's test drawings from the repo's fixtures/
 * (fixtures/README.md has their provenance), runs through `executeEntry` as hosts run tools, and
 * GDAL's command-line tools (Debian's gdal-bin) as the second reader.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { executeEntry } from "../runtime/execute";
import { drawingTools } from "./index";

export const DRAWINGS = fileURLToPath(new URL("../../../fixtures/drawing/", import.meta.url));

/** Every DWG fixture, Release 2.10 to 2018, with its $ACADVER. */
export const DWG_FIXTURES: [name: string, version: string][] = [
  ["r2.10-entities.dwg", "AC2.10"],
  ["example_r14.dwg", "AC1014"],
  ["example_2000.dwg", "AC1015"],
  ["2004-Arc.dwg", "AC1018"],
  ["2007-Arc.dwg", "AC1021"],
  ["2010-Leader.dwg", "AC1024"],
  ["2013-Constraints.dwg", "AC1027"],
  ["example_2018.dwg", "AC1032"],
  ["sample_2018.dwg", "AC1032"],
  ["2018-Arc.dwg", "AC1032"],
];
export const DXF_FIXTURES = ["example_r12.dxf", "sample_r14.dxf", "2000-entities-2d.dxf", "example_2018.dxf"];

export function drawingFixture(name: string): ToolInput {
  return { name, bytes: new Uint8Array(readFileSync(DRAWINGS + name)) };
}

export function runDrawing(slug: string, inputs: ToolInput[], params: Record<string, unknown> = {}): Promise<ToolOutput[]> {
  const entry = drawingTools.find((t) => t.manifest.slug === slug);
  if (!entry) throw new Error(`no drawing tool ${slug}`);
  return executeEntry(entry, inputs, params);
}

interface OgrFeature {
  properties: Record<string, string | null>;
}

/** ogr2ogr's GeoJSON of a DXF fixture's entities (blocks inlined unless `inline` is false). */
export function ogrFeatures(name: string, inline = true): OgrFeature[] {
  const out = execFileSync("ogr2ogr", ["--config", "DXF_INLINE_BLOCKS", inline ? "TRUE" : "FALSE", "-f", "GeoJSON", "/vsistdout/", DRAWINGS + name, "entities"], { maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "ignore"] });
  return (JSON.parse(out.toString()) as { features: OgrFeature[] }).features;
}

export function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}
