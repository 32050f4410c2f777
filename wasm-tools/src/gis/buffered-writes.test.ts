/**
 * Outputs written to host files in large pieces (buffered-writes.ts): the same bytes as a
 * conversion in memory, in a handful of writes instead of one per kilobyte, and a GeoPackage
 * (SQLite reads back, seeks and truncates what it wrote) still comes out whole.
 */
import { describe, expect, test } from "bun:test";
import fs, { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executeEntry } from "../runtime/execute";
import { gisTools } from "./index";
import { nativeVector } from "./testing/cli";
import { featureCollection, manyFeatures } from "./testing/fixtures";
import { inputOf, runGis } from "./testing/run";

const convert = gisTools.find((e) => e.manifest.slug === "gis.convert")!;

/** Runs gis.convert on `content` as host files in `dir`; answers the output's path and how many fs.writeSync calls were made. */
async function convertOnHost(dir: string, name: string, content: Uint8Array, to: string): Promise<{ path: string; writes: number }> {
  const path = join(dir, name);
  writeFileSync(path, content);
  mkdirSync(join(dir, "out"), { recursive: true });
  const input = { name, bytes: content.slice(0, 1024), path, size: content.byteLength };
  const original = fs.writeSync;
  let writes = 0;
  fs.writeSync = ((...args: Parameters<typeof fs.writeSync>) => (writes++, original(...args))) as typeof fs.writeSync;
  try {
    const [out] = await executeEntry(convert, [input], { to }, { outputDir: join(dir, "out") });
    return { path: out.path!, writes };
  } finally {
    fs.writeSync = original;
  }
}

describe("GIS outputs on host files", () => {
  test("a 4 MB GeoJSON output is the same bytes as in memory, written in a few large pieces", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gis-writes-"));
    try {
      const [gpkg] = await runGis("gis.convert", inputOf("many.geojson", featureCollection(manyFeatures(20_000))), { to: "gpkg" });
      const [inMemory] = await runGis("gis.convert", inputOf("many.gpkg", gpkg.bytes), { to: "geojson" });
      expect(inMemory.bytes.byteLength).toBeGreaterThan(3_500_000);
      const { path, writes } = await convertOnHost(dir, "many.gpkg", gpkg.bytes, "geojson");
      expect(Buffer.compare(readFileSync(path), inMemory.bytes)).toBe(0);
      expect(writes).toBeLessThan(20); // 1 KB at a time would be about 4,000
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test("a GeoPackage written on the host holds every feature", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gis-writes-"));
    try {
      const { path } = await convertOnHost(dir, "many.geojson", featureCollection(manyFeatures(20_000)), "gpkg");
      const [layer] = nativeVector("many.gpkg", new Uint8Array(readFileSync(path)));
      expect(layer.featureCount).toBe(20_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
