/**
 * `bun bench/tools-big/per-byte.ts`: each tool's peak memory per input byte, the figure its
 * manifest states as `limits.memoryPerInputByte` (what the browser checks before running a file
 * on this device). For each tool, two inputs of the same kind made in code (a small and a bigger
 * one); each run in a fresh Bun process that warms the tool's engine on the small input, then runs
 * it on the measured one, and reports the process's peak RSS (VmHWM, reset after the warm-up, so
 * loading the engine does not hide a small run's peak). The figure is the peaks' difference over
 * the inputs' difference, so the engine's fixed size and Bun's own cancel out;
 * the input's own bytes (held by the worker, as in the browser) are part of it. GIS tools that
 * stream (io.hostFiles) read their input as a mounted file, as the browser's WORKERFS mount gives
 * it, and write their output in memory, as in the browser, unless the case says `outputDir` (the
 * server gives the run a host folder for its outputs; their size is then the files'). Not in `npm run bench` (no index.ts
 * here); a few minutes; needs gdal_translate (gdal-bin) for the GeoTIFF. env: PER_BYTE_ONLY (substring of a slug or label), PER_BYTE_SCALE (default 1).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipSync } from "../../wasm-tools/node_modules/fflate";
import { writePointsGeojson } from "../../wasm-tools/src/gis/testing/big-geojson";
import { sphereAsciiStl } from "../../wasm-tools/src/mesh/test-support";
import { stepCopies } from "../../wasm-tools/src/testing/step-copies";
import { writeWallsIfc } from "../../wasm-tools/src/testing/big-ifc";
import { gerber, rasterVrt, writeImagePdf } from "../lib/inputs";
import { fixed, MiB, printTable } from "../lib/table";

const REPO = join(import.meta.dir, "..", "..");
const ONLY = process.env.PER_BYTE_ONLY ?? "";
const SCALE = Number(process.env.PER_BYTE_SCALE ?? 1);
const dir = mkdtempSync(join(tmpdir(), "per-byte-"));
const OCCT = join(REPO, "wasm-tools/node_modules/occt-import-js/test/testfiles");
const FIXTURES = join(REPO, "../shared/fixtures");

/** An R12 DXF of `n` LINE entities on a few layers. */
function dxfLines(n: number): Uint8Array {
  const out = ["0", "SECTION", "2", "ENTITIES"];
  for (let i = 0; i < n; i++) out.push("0", "LINE", "8", `L${i % 7}`, "10", String(i % 1000), "20", String(Math.floor(i / 1000)), "30", "0", "11", String((i % 1000) + 0.5), "21", String(Math.floor(i / 1000) + 0.5), "31", "0");
  out.push("0", "ENDSEC", "0", "EOF");
  return new TextEncoder().encode(out.join("\n") + "\n");
}

type Make = (scale: number) => Promise<{ name: string; path: string }[]>;
const file = (name: string, bytes: Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return [{ name, path }];
};
const pdf: Make = async (s) => {
  const path = join(dir, `scan-${s}.pdf`);
  writeImagePdf(path, 4 * s, MiB);
  return [{ name: `scan-${s}.pdf`, path }];
};
const geojson: Make = async (s) => [{ name: `points-${s}.geojson`, path: await writePointsGeojson(join(dir, `points-${s}.geojson`), 4 * s) }];
const step: Make = async (s) => file(`parts-${s}.stp`, stepCopies(join(OCCT, "cax-if/as1-oc-214.stp"), 2 * s));
const ifc: Make = async (s) => file(`model-${s}.ifc`, stepCopies(join(FIXTURES, "bim/AC20-FZK-Haus.ifc"), s));
/** Models of walls made in code (wasm-tools/src/testing/big-ifc.ts), about 40 MB per scale step: many small meshes, the GLB's worst case. */
const walls: Make = async (s) => {
  const path = join(dir, `walls-${s}.ifc`);
  writeWallsIfc(path, 40 * s);
  return [{ name: `walls-${s}.ifc`, path }];
};
const gbr: Make = async (s) => file(`top-${s}.gtl`, gerber(20_000 * s, 10_000 * s));
const board: Make = async (s) => file(`board-${s}.zip`, zipSync({ "board.gtl": gerber(20_000 * s, 10_000 * s) }, { level: 0 }));
const dxf: Make = async (s) => file(`lines-${s}.dxf`, dxfLines(25_000 * s));
const dwg: Make = async (s) => [{ name: "d.dwg", path: join(FIXTURES, s === 1 ? "drawing/example_2018.dwg" : "drawing/example_2000.dwg") }];
const geotiff: Make = async (s) => {
  const at = join(dir, `raster-${s}`);
  mkdirSync(at);
  const path = join(dir, `raster-${s}.tif`);
  const made = Bun.spawnSync(["gdal_translate", "-q", "-of", "GTiff", rasterVrt(at, 1024 * Math.sqrt(s), 1024 * Math.sqrt(s)), path]);
  if (made.exitCode !== 0) throw new Error(`gdal_translate: ${made.stderr}`);
  return [{ name: `raster-${s}.tif`, path }];
};
const stl: Make = async (s) => file(`sphere-${s}.stl`, new TextEncoder().encode(sphereAsciiStl(10, 100 * s, 200)));

interface Case {
  slug: string;
  params: Record<string, unknown>;
  make: Make;
  /** Read as a mounted host file (an io.hostFiles tool: the browser mounts the File with WORKERFS). */
  mounted?: boolean;
  /** Inputs per run (pdf.merge takes two). */
  twice?: boolean;
  /** Outputs written into a host folder (RunContext.outputDir), as the server's workers run the tool. */
  outputDir?: boolean;
  /** Told apart from other cases of the same tool in the table. */
  label?: string;
}

const CASES: Case[] = [
  { slug: "gis.convert", params: { to: "gpkg" }, make: geojson, mounted: true },
  { slug: "gis.convert", params: { to: "csv" }, make: geojson, mounted: true },
  { slug: "gis.info", params: {}, make: geojson, mounted: true },
  { slug: "gis.reproject", params: { to: 3857 }, make: geojson, mounted: true },
  { slug: "gis.raster-convert", params: { to: "png" }, make: geotiff },
  { slug: "pdf.compress", params: {}, make: pdf },
  { slug: "pdf.extract-text", params: {}, make: pdf },
  { slug: "pdf.merge", params: {}, make: pdf, twice: true },
  { slug: "pdf.metadata", params: { title: "x" }, make: pdf },
  { slug: "pdf.render-png", params: { dpi: 72 }, make: pdf },
  { slug: "pdf.rotate", params: { degrees: 90 }, make: pdf },
  { slug: "pdf.split", params: {}, make: pdf },
  { slug: "cad.convert", params: { format: "glb" }, make: step },
  { slug: "cad.info", params: {}, make: step },
  { slug: "bim.ifc-to-glb", params: {}, make: ifc, mounted: true },
  { slug: "bim.ifc-to-glb", params: {}, make: walls, mounted: true, outputDir: true, label: "walls, output folder" },
  { slug: "bim.ifc-properties", params: {}, make: ifc, mounted: true },
  { slug: "bim.ifc-info", params: {}, make: ifc, mounted: true },
  { slug: "pcb.gerber-to-svg", params: {}, make: gbr },
  { slug: "pcb.render-board", params: {}, make: board },
  { slug: "pcb.info", params: {}, make: board },
  { slug: "drawing.info", params: {}, make: dxf },
  { slug: "drawing.to-svg", params: {}, make: dxf },
  { slug: "drawing.to-geojson", params: {}, make: dxf },
  { slug: "drawing.to-pdf", params: {}, make: dxf },
  { slug: "drawing.to-dxf", params: {}, make: dwg },
  { slug: "mesh.convert", params: { to: "glb" }, make: stl },
  { slug: "mesh.info", params: {}, make: stl },
];

/** The child: warm the engine on `warm`, run on `files`, print the peak RSS in bytes. */
const CHILD = `
import "${REPO}/wasm-tools/src/testing/node-host";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { execute } from "${REPO}/wasm-tools/src/index";
const [slug, params, mounted, warm, files, withOutputDir, tmp] = JSON.parse(process.argv[2]);
/** A fresh output folder per run, as the server gives each job one. */
const ctx = () => (withOutputDir ? { outputDir: mkdtempSync(tmp + "/out-") } : {});
/** A mounted input's first bytes only, as the browser gives them with the File. */
const head = (path) => {
  const fd = openSync(path, "r");
  const bytes = new Uint8Array(65536);
  const n = readSync(fd, bytes, 0, bytes.length, 0);
  closeSync(fd);
  return bytes.subarray(0, n);
};
const inputs = (list) => list.map(({ name, path }) =>
  mounted ? { name, bytes: head(path), path, size: statSync(path).size } : { name, bytes: new Uint8Array(readFileSync(path)) });
const size = (o) => (o.path ? statSync(o.path).size : o.bytes.byteLength);
const warmContext = ctx();
await execute(slug, inputs(warm), params, warmContext);
if (warmContext.outputDir) rmSync(warmContext.outputDir, { recursive: true });
Bun.gc(true);
// The peak from here on (Linux: 5 resets VmHWM to the current RSS), so loading the engine does not hide a small run's.
writeFileSync("/proc/self/clear_refs", "5");
const runContext = ctx();
const t0 = performance.now();
const outputs = await execute(slug, inputs(files), params, runContext);
const seconds = (performance.now() - t0) / 1000;
const peak = Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]) * 1024;
const out = outputs.reduce((n, o) => n + size(o), 0);
if (runContext.outputDir) rmSync(runContext.outputDir, { recursive: true });
console.log(JSON.stringify({ peak, out, seconds }));
`;
const childPath = join(dir, "child.ts");
writeFileSync(childPath, CHILD);

async function peak(c: Case, warm: { name: string; path: string }[], files: { name: string; path: string }[]): Promise<{ peak: number; out: number; seconds: number }> {
  const arg = JSON.stringify([c.slug, c.params, !!c.mounted, warm, files, !!c.outputDir, dir]);
  const proc = Bun.spawn([process.execPath, childPath, arg], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${c.slug}: exit ${code}: ${err.slice(-2000)}`);
  return JSON.parse(out.trim().split("\n").pop()!);
}

const rows: string[][] = [];
try {
  for (const c of CASES.filter((c) => `${c.slug} ${c.label ?? ""}`.includes(ONLY))) {
    const [small, big] = [await c.make(SCALE), await c.make(4 * SCALE)];
    const [a, b] = c.twice ? [[...small, ...small], [...big, ...big]] : [small, big];
    const size = (list: { path: string }[]) => list.reduce((n, f) => n + statSync(f.path).size, 0);
    const name = `${c.slug} ${JSON.stringify(c.params)}${c.label ? ` (${c.label})` : ""}`;
    try {
      const [p1, p2] = [await peak(c, a, a), await peak(c, a, b)];
      const perByte = (p2.peak - p1.peak) / (size(b) - size(a));
      rows.push([name, fixed(size(a) / MiB, 1), fixed(size(b) / MiB, 1), fixed(p1.peak / MiB, 0), fixed(p2.peak / MiB, 0), fixed(p2.out / MiB, 1), fixed(p2.seconds, 1), fixed(perByte, 2)]);
    } catch (err) {
      rows.push([name, fixed(size(a) / MiB, 1), fixed(size(b) / MiB, 1), "-", "-", "-", "-", `failed: ${String((err as Error).message).slice(0, 300)}`]);
    }
    console.log(rows.at(-1)!.join(" | "));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
printTable(["tool", "small MB", "big MB", "peak small MB", "peak big MB", "output big MB", "big s", "per input byte"], rows);
