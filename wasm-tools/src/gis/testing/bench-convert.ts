/**
 * One GIS timing by hand, until the bench compares families: a 50,000-feature GeoJSON (points
 * and small polygons with four properties) to GeoPackage, through gis.convert (WASM) and through
 * Debian's native ogr2ogr (process start included, as a user would run it).
 *
 *   .tools/node_modules/.bin/bun wasm-tools/src/gis/testing/bench-convert.ts [features] [runs]
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadGdal } from "../init";
import { featureCollection, manyFeatures } from "./fixtures";
import { inputOf, runGis } from "./run";

const count = Number(process.argv[2] ?? 50_000);
const runs = Number(process.argv[3] ?? 5);
const geojson = featureCollection(manyFeatures(count));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;

let t = performance.now();
await loadGdal();
const init = performance.now() - t;

const wasm: number[] = [];
for (let i = 0; i < runs; i++) {
  t = performance.now();
  const [out] = await runGis("gis.convert", inputOf("many.geojson", geojson), { to: "gpkg" });
  wasm.push(performance.now() - t);
  if (i === 0) console.log(`output ${out.bytes.length} bytes`);
}

const dir = mkdtempSync(join(tmpdir(), "gis-bench-"));
const native: number[] = [];
try {
  writeFileSync(join(dir, "many.geojson"), geojson);
  for (let i = 0; i < runs; i++) {
    rmSync(join(dir, "out.gpkg"), { force: true });
    t = performance.now();
    const r = Bun.spawnSync(["ogr2ogr", "-f", "GPKG", join(dir, "out.gpkg"), join(dir, "many.geojson")], { stderr: "pipe" });
    native.push(performance.now() - t);
    if (r.exitCode !== 0) throw new Error(`ogr2ogr failed: ${r.stderr.toString()} (apt-get install -y gdal-bin)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const version = Bun.spawnSync(["ogr2ogr", "--version"]).stdout.toString().trim();
console.log(`${count} features, ${(geojson.length / 1e6).toFixed(1)} MB GeoJSON -> GeoPackage, ${runs} runs`);
console.log(`WASM (gdal3.js 2.8.1, GDAL 3.8.4): engine load ${ms(init)}, first run ${ms(wasm[0])}, median ${ms(median(wasm))}`);
console.log(`native (${version}): first ${ms(native[0])}, median ${ms(median(native))}`);
console.log(`ratio WASM/native: median ${(median(wasm) / median(native)).toFixed(2)}x, first run ${(wasm[0] / median(native)).toFixed(2)}x, first run + load ${((wasm[0] + init) / median(native)).toFixed(2)}x`);
