/**
 * GIS tools on host files (how the server's workers run them): the input is read from its host
 * file through a mounted folder and outputs are written into the host's output folder, handed
 * back by path. The host's input file is left as it was; nothing stays in the engine. A Blob (the
 * browser's way) is mounted only in a Web Worker (e2e/gis-stream.e2e.ts runs that in Chromium).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executeEntry } from "../runtime/execute";
import { gisTools } from "./index";
import { loadGdal } from "./init";
import { nativeVector } from "./testing/cli";
import { featureCollection, manyFeatures } from "./testing/fixtures";
import "./testing/run";

/** `content` written as a host file, given to the tool as the server's host does: path, size, first bytes. */
function hostInput(dir: string, name: string, content: Uint8Array | string) {
  const path = join(dir, "in", name);
  mkdirSync(join(dir, "in"), { recursive: true });
  writeFileSync(path, content);
  const bytes = new Uint8Array(readFileSync(path)).slice(0, 1024);
  return { name, bytes, path, size: typeof content === "string" ? Buffer.byteLength(content) : content.byteLength };
}

function runOnHost(slug: string, dir: string, input: ReturnType<typeof hostInput>, params: Record<string, unknown>) {
  const outputDir = join(dir, "out");
  mkdirSync(outputDir, { recursive: true });
  const entry = gisTools.find((e) => e.manifest.slug === slug)!;
  return executeEntry(entry, [input], params, { outputDir });
}

describe("GIS tools on host files", () => {
  test("gis.convert reads the host file and writes the GeoPackage into the output folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gis-host-"));
    try {
      const content = featureCollection(manyFeatures(2000));
      const input = hostInput(dir, "many.geojson", content);
      const [out] = await runOnHost("gis.convert", dir, input, { to: "gpkg" });
      expect({ name: out.name, bytes: out.bytes.byteLength, path: out.path?.startsWith(join(dir, "out") + "/") }).toEqual({ name: "many.gpkg", bytes: 0, path: true });
      const [layer] = nativeVector(out.name, new Uint8Array(readFileSync(out.path!)));
      expect(layer.featureCount).toBe(2000);
      expect(Buffer.compare(readFileSync(input.path), content)).toBe(0);
      expect((await loadGdal()).leftovers()).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test("gis.reproject and gis.info on host files; the input file stays", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gis-host-"));
    try {
      const input = hostInput(dir, "sample.geojson", featureCollection());
      const [moved] = await runOnHost("gis.reproject", dir, input, { to: 3857 });
      expect(moved.path && existsSync(moved.path)).toBe(true);
      expect(nativeVector(moved.name, new Uint8Array(readFileSync(moved.path!)))[0].epsg).toBe(3857);
      const [report] = await runOnHost("gis.info", dir, input, {});
      expect(JSON.parse(new TextDecoder().decode(report.bytes)).layers[0].featureCount).toBe(7);
      expect(existsSync(input.path)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test("a host file given to a tool that reads bytes only is refused, not read as its first bytes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gis-host-"));
    try {
      const input = hostInput(dir, "x.tif", "II*\0");
      const entry = gisTools.find((e) => e.manifest.slug === "gis.raster-convert")!;
      await expect(executeEntry(entry, [input], { to: "png" })).rejects.toMatchObject({ code: "TOOL_FAILED" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an input given as a Blob, where it cannot be mounted (no Web Worker here), is read whole: the same output as from bytes", async () => {
    const content = featureCollection(manyFeatures(500));
    const blob = new Blob([content as Uint8Array<ArrayBuffer>], { type: "application/geo+json" });
    const entry = gisTools.find((e) => e.manifest.slug === "gis.convert")!;
    // As the browser's host gives it: the first bytes, the Blob, its size.
    const given = { name: "many.geojson", bytes: content.slice(0, 1024), blob, size: blob.size };
    const [fromBlob] = await executeEntry(entry, [given], { to: "csv" });
    const [fromBytes] = await executeEntry(entry, [{ name: "many.geojson", bytes: content }], { to: "csv" });
    expect(fromBlob.bytes.byteLength).toBeGreaterThan(0);
    expect(Buffer.compare(fromBlob.bytes, fromBytes.bytes)).toBe(0);
    expect((await loadGdal()).leftovers()).toEqual([]);
  }, 120_000);
});
