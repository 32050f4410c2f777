/**
 * Emscripten's invoke_* trampolines as WebAssembly (emscripten-invokes.ts), on the GIS engine
 * (gdal3.js, built with JavaScript exceptions): they are in use, and C++ exceptions thrown
 * inside GDAL and PROJ are still caught where the C++ code catches them, many times over.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { GDAL_WASM, fastInvokeCount, loadGdal, withGdal } from "../gis/init";
import { featureCollection, SAMPLE_FEATURES } from "../gis/testing/fixtures";
import { inputOf, runGis } from "../gis/testing/run";
import { fastInvokes, findStackExports, helperModule } from "./emscripten-invokes";
import { nodeWasmPath } from "./node-wasm";
import { exportedBodies } from "./wasm-binary";

const gdalBytes = () => new Uint8Array(readFileSync(nodeWasmPath(GDAL_WASM)));

describe("invoke trampolines in WebAssembly", () => {
  test("gdal3.js's stackSave, stackRestore and setThrew are found by their code", () => {
    const found = findStackExports(exportedBodies(gdalBytes()));
    expect(found).toBeDefined();
    expect(new Set(Object.values(found!)).size).toBe(3);
  });

  test("the helper module compiles for every signature kind", () => {
    const bytes = helperModule([["a", "v"], ["b", "iid"], ["c", "diiif"], ["d", "fd"]]);
    expect(WebAssembly.Module.exports(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>)).map((e) => e.name)).toEqual(["a", "b", "c", "d"]);
  });

  test("bytes that are not a module leave the imports alone (compiling them reports the error)", () => {
    expect(fastInvokes(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]))).toBeUndefined();
    expect(fastInvokes(new Uint8Array([1, 2, 3]))).toBeUndefined();
  });

  test("the GIS engine uses them, and C++ exceptions are caught where GDAL and PROJ catch them, again and again", async () => {
    await loadGdal();
    expect(fastInvokeCount()).toBeGreaterThan(100);
    // PROJ throws (and catches) a C++ exception for a code its database does not have; an
    // exception that escaped, or a stack pointer not restored each time, would end the engine.
    const answers = await withGdal({ signal: new AbortController().signal, onProgress: () => {} }, (op) => {
      const out: (string | null)[] = [];
      for (let i = 0; i < 300; i++) out.push(op.epsgWkt(990000 + i));
      out.push(op.epsgWkt(4326));
      return out;
    });
    expect(answers.slice(0, 300).every((a) => a === null)).toBe(true);
    expect(answers[300]).toMatch(/^GEOGCS\["WGS 84"/);
    const [out] = await runGis("gis.reproject", inputOf("a.geojson", featureCollection()), { to: 3857 });
    expect(JSON.parse(new TextDecoder().decode(out.bytes)).features).toHaveLength(SAMPLE_FEATURES.length);
  }, 120_000);
});
