import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolError } from "@vektor/shared/tools/manifest";
import { expectToolError } from "../testing/run-tool";
import { GdalCrash } from "./engine";
import { GDAL_DATA, GDAL_WASM, loadGdal, withGdal } from "./init";
import { nativeVector } from "./testing/cli";
import { featureCollection, manyFeatures, SAMPLE_FEATURES } from "./testing/fixtures";
import { inputOf, runGis } from "./testing/run";

const SRC = join(import.meta.dir, "..");

/** Runs `body` in a fresh Bun process (so the engine's one-time load starts empty); `SRC` is wasm-tools/src. */
async function inFreshProcess(body: string, env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const dir = mkdtempSync(join(tmpdir(), "gis-locator-"));
  try {
    const script = join(dir, "main.ts");
    writeFileSync(script, `const SRC = ${JSON.stringify(SRC)};\n${body}`);
    const proc = Bun.spawn([process.execPath, script], { cwd: join(SRC, ".."), stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, out, err };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Two runs (a conversion and a reprojection, which needs PROJ's database from the data file) with a locator built from SOURCE. */
const runTwice = `
const { setWasmLocator } = await import(SRC + "/runtime/wasm-source.ts");
const { executeEntry } = await import(SRC + "/runtime/execute.ts");
const { gisTools } = await import(SRC + "/gis/index.ts");
const { readFileSync } = await import("node:fs");
const { pathToFileURL } = await import("node:url");
const { nodeWasmPath } = await import(SRC + "/runtime/node-wasm.ts");
const asked = [];
setWasmLocator(async (ref) => { asked.push(ref.name + ":" + ref.pkg + "/" + ref.file); return SOURCE(ref); });
const entry = (slug) => gisTools.find((e) => e.manifest.slug === slug);
const geojson = new TextEncoder().encode(JSON.stringify({ type: "FeatureCollection", features: [{ type: "Feature", properties: { n: 1 }, geometry: { type: "Point", coordinates: [10, 50] } }] }));
const input = { name: "p.geojson", bytes: geojson };
const fail = (e) => e.code + " " + e.message;
const convert = await executeEntry(entry("gis.convert"), [input], { to: "gpkg" }).then((o) => o[0].bytes.length, fail);
const reproject = await executeEntry(entry("gis.reproject"), [input], { to: 3857 }).then((o) => JSON.parse(new TextDecoder().decode(o[0].bytes)).features[0].geometry.coordinates, fail);
console.log(JSON.stringify({ convert, reproject, asked }));
`;

describe("GIS engine", () => {
  test("the host injects the WASM and the data file (bytes, URLs, a compiled module); each is asked for once; bad sources fail clearly", async () => {
    const load = `const bytesOf = (ref) => new Uint8Array(readFileSync(nodeWasmPath(ref)));\n`;
    const [bytes, urls, compiled, broken, noData, wrongData] = await Promise.all([
      inFreshProcess(`${runTwice.replace("const asked", `${load}const SOURCE = (ref) => ({ bytes: bytesOf(ref) });\nconst asked`)}`),
      inFreshProcess(`${runTwice.replace("const asked", `const SOURCE = (ref) => ({ url: pathToFileURL(nodeWasmPath(ref)).href });\nconst asked`)}`),
      inFreshProcess(
        `${runTwice.replace("const asked", `${load}const module = await WebAssembly.compile(bytesOf({ pkg: "gdal3.js", file: "gdal3WebAssembly.wasm" }));\nconst SOURCE = (ref) => (ref.name === "gdal3" ? { module } : { bytes: bytesOf(ref) });\nconst asked`)}`,
      ),
      inFreshProcess(`${runTwice.replace("const asked", `${load}const SOURCE = (ref) => (ref.name === "gdal3" ? { bytes: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]) } : { bytes: bytesOf(ref) });\nconst asked`)}`),
      inFreshProcess(`${runTwice.replace("const asked", `${load}const SOURCE = (ref) => (ref.name === "gdal3" ? { bytes: bytesOf(ref) } : undefined);\nconst asked`)}`),
      inFreshProcess(`${runTwice.replace("const asked", `${load}const SOURCE = (ref) => (ref.name === "gdal3" ? { bytes: bytesOf(ref) } : { bytes: new Uint8Array(1000) });\nconst asked`)}`),
    ]);
    for (const r of [bytes, urls, compiled, broken, noData, wrongData]) expect(r.code, r.err).toBe(0);
    for (const r of [bytes, urls, compiled]) {
      const ok = JSON.parse(r.out);
      expect(ok.asked.sort()).toEqual(["gdal3-data:gdal3.js/gdal3WebAssembly.data", "gdal3:gdal3.js/gdal3WebAssembly.wasm"]);
      expect(ok.convert).toBeGreaterThan(50_000);
      expect(ok.reproject[0]).toBeCloseTo(1113194.9, 1);
      expect(ok.reproject[1]).toBeCloseTo(6446275.8, 1);
    }
    const bad = JSON.parse(broken.out);
    expect(bad.convert).toMatch(/^TOOL_FAILED Could not load the GIS engine \(gdal3\.js WASM and data\)/);
    expect(bad.reproject).toMatch(/^TOOL_FAILED Could not load the GIS engine/);
    expect(JSON.parse(noData.out).convert).toMatch(/^TOOL_FAILED .*no source for gdal3WebAssembly\.data: the host must provide it/);
    expect(JSON.parse(wrongData.out).convert).toMatch(/^TOOL_FAILED .*gdal3WebAssembly\.data has 1000 bytes, this gdal3\.js build expects \d+/);
  }, 180_000);

  test("without gdal-bin the output checks fail and say how to install it (they never skip)", async () => {
    const script = `const { requireGdalBin } = await import(SRC + "/gis/testing/cli.ts");
try { requireGdalBin(); console.log("no error"); } catch (e) { console.log(e.message); }`;
    const r = await inFreshProcess(script, { PATH: "/nonexistent" });
    expect(r.out).toMatch(/ogrinfo, ogr2ogr, gdalinfo, gdaltransform not found.*apt-get install -y gdal-bin/);
  }, 60_000);

  test("the refs name gdal3.js's files beside its entry module", () => {
    expect([GDAL_WASM, GDAL_DATA].map((r) => `${r.family}/${r.name}: ${r.pkg} ${r.file}`)).toEqual([
      "gis/gdal3: gdal3.js gdal3WebAssembly.wasm",
      "gis/gdal3-data: gdal3.js gdal3WebAssembly.data",
    ]);
  });

  test("every run cleans up after itself, also after a failure", async () => {
    const gdal = await loadGdal();
    await runGis("gis.convert", inputOf("a.geojson", featureCollection()), { to: "shapefile-zip" });
    expect(gdal.leftovers()).toEqual([]);
    await expectToolError(runGis("gis.convert", inputOf("b.csv", "a,b\n1,2\n"), { to: "gpkg" }), "INPUT_INVALID");
    expect(gdal.leftovers()).toEqual([]);
  }, 60_000);

  test("runs started together take turns and each gets its own result", async () => {
    const sizes = [1, 2, 3, 4, 5, 6];
    const outputs = await Promise.all(sizes.map((n) => runGis("gis.convert", inputOf("same.geojson", featureCollection(SAMPLE_FEATURES.slice(0, n))), { to: "flatgeobuf" })));
    expect(outputs.map(([o]) => nativeVector(o.name, o.bytes)[0].featureCount)).toEqual(sizes);
  }, 60_000);

  test("cancellation: an aborted run reports CANCELLED and the engine carries on", async () => {
    const aborted = new AbortController();
    aborted.abort();
    await expectToolError(runGis("gis.info", inputOf("a.geojson", featureCollection()), {}, aborted.signal), "CANCELLED");
    // Aborted after the run started (GDAL's own work is synchronous: a host stops that by ending the worker).
    const midway = new AbortController();
    const running = runGis("gis.convert", inputOf("many.geojson", featureCollection(manyFeatures(5000))), { to: "gpkg" }, midway.signal);
    midway.abort();
    await expectToolError(running, "CANCELLED");
    const [after] = await runGis("gis.convert", inputOf("a.geojson", featureCollection()), { to: "gpkg" });
    expect(nativeVector(after.name, after.bytes)[0].featureCount).toBe(7);
  }, 60_000);

  test("a crashed WASM instance is reported as TOOL_FAILED and replaced on the next run", async () => {
    const before = await loadGdal();
    let caught: unknown;
    try {
      await withGdal({ signal: new AbortController().signal, onProgress: () => {} }, () => {
        throw new WebAssembly.RuntimeError("unreachable");
      });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ToolError);
    expect((caught as ToolError).code).toBe("TOOL_FAILED");
    expect((caught as ToolError).message).toMatch(/the GDAL engine crashed: unreachable; the next run starts a fresh engine/);
    expect(before.crashed).toBeInstanceOf(GdalCrash);
    await expect(before.operation(() => 1)).rejects.toBeInstanceOf(GdalCrash);
    const [out] = await runGis("gis.convert", inputOf("a.geojson", featureCollection()), { to: "gpkg" });
    expect(nativeVector(out.name, out.bytes)[0].featureCount).toBe(7);
    expect(await loadGdal()).not.toBe(before);
  }, 60_000);
});
