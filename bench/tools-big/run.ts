/**
 * `BENCH_TOOLS_BIG=1 npm run bench -- tools`: the tools on real-sized files (issue 27), each made
 * in code, through the API of a real server (a child process, one tool worker, PGlite) beside the
 * native program on the same file: upload, run (job created to job ended) and download times,
 * the server's peak RSS during the run and what it added to the RSS before the run (the tool
 * worker is a thread of the server: the added peak is the worker's, its engine already loaded by
 * a warm-up run on a tiny file of the same kind), and the native program's peak (GNU time). Not
 * in `npm test`; a folder without index.ts, so `npm run bench` does not pick it up alone:
 * bench/tools.ts dispatches here.
 *
 *   inputs    GeoJSON points of BIG_MB, the GeoPackage ogr2ogr makes of it, a LAS (point format 1)
 *             of BIG_MB, a LAZ of BIG_MB (a real LAZ's chunks repeated), a PDF of BIG_MB/2 of
 *             scanned (random-pixel) pages, an MPEG-4 video of about BIG_MB (ffmpeg testsrc2 with
 *             noise, so it is 40 Mbit/s), an IFC4 model of about 0.3 x BIG_MB of walls (300 MB
 *             at 1024; Debian has no native IFC program)
 *   targets   run time <= 1.5x native (media <= 4x); the worker's added peak <= 3x the input + 200 MB
 *   env       BIG_MB (default 1024; e.g. 64 on a small or busy machine), BENCH_ONLY (substring of
 *             a case's label)
 *
 * A tool whose limit is below the file answers 422 at creation: the row says so with the limit.
 */
import { VektorClient } from "@vektor/shared/client";
import type { Job } from "@vektor/shared/schemas/job";
import { statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writePointsGeojson } from "../../wasm-tools/src/gis/testing/big-geojson";
import { writeBigLas, writeBigLaz } from "../../wasm-tools/src/pointcloud/testing/big-clouds";
import { writeWallsIfc } from "../../wasm-tools/src/testing/big-ifc";
import { writeImagePdf } from "../lib/inputs";
import { ensureCommands, have } from "../lib/native";
import { startServer } from "../lib/server";
import { fixed, MiB, printTable } from "../lib/table";
import { Teardown } from "../lib/teardown";

const BIG_MB = Number(process.env.BIG_MB ?? 1024);
if (!(BIG_MB > 0)) throw new Error("BIG_MB must be a positive number of MB");
const ONLY = process.env.BENCH_ONLY ?? "";
const teardown = new Teardown("tools-big", tmpdir());
const dir = teardown.dir;

interface Case {
  label: string;
  slug: string;
  params: Record<string, unknown>;
  /** The input of about `mb` MB (`tag` names it apart from the warm-up's). */
  file: (mb: number, tag: string) => Promise<string>;
  mime: string;
  /** The native command on `input`, writing into the folder `out`; null when Debian has none here. */
  native: ((input: string, out: string) => string[]) | null;
  /** Why there is no native command, for the row (default: not installed here). */
  noNative?: string;
  timeTarget: number;
}

async function sh(argv: string[]): Promise<void> {
  const proc = Bun.spawn(argv, { stdout: "ignore", stderr: "pipe" });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  if (code !== 0) throw new Error(`${argv.join(" ")} exited with ${code}: ${err.trim().split("\n").slice(-3).join(" | ")}`);
}

/** The native command's wall time and peak RSS (GNU time's %M). */
async function timeNative(argv: string[]): Promise<{ ms: number; peak: number }> {
  const report = join(dir, "time.txt");
  const t0 = performance.now();
  await sh(["/usr/bin/time", "-o", report, "-f", "%M", ...argv]);
  const ms = performance.now() - t0;
  return { ms, peak: Number((await Bun.file(report).text()).trim().split("\n").pop()) * 1024 };
}

/** Each input made once (several cases share one). */
const made = new Map<string, Promise<string>>();
const once = (name: string, make: (path: string, mb: number) => Promise<unknown> | unknown) => (mb: number, tag: string) => {
  const path = join(dir, `${tag}-${name}`);
  if (!made.has(path)) made.set(path, Promise.resolve(make(path, mb)).then(() => path));
  return made.get(path)!;
};
const geojsonFile = once("points.geojson", writePointsGeojson);
const ifcFile = once("walls.ifc", (path, mb) => writeWallsIfc(path, (mb * 300) / 1024));
const gpkgFile = once("points.gpkg", async (path, mb) => sh(["ogr2ogr", "-f", "GPKG", path, await geojsonFile(mb, path.includes("warm-") ? "warm" : "big")]));
/** A warm-up input's size: enough for a real run, small enough to take no time. */
const WARM_MB = 0.2;

const CASES: Case[] = [
  { label: "GeoJSON -> GeoPackage", slug: "gis.convert", params: { to: "gpkg" }, file: geojsonFile, mime: "application/geo+json", native: (i, o) => ["ogr2ogr", "-f", "GPKG", `${o}/out.gpkg`, i], timeTarget: 1.5 },
  { label: "GeoPackage -> GeoJSON", slug: "gis.convert", params: { to: "geojson" }, file: gpkgFile, mime: "application/geopackage+sqlite3", native: (i, o) => ["ogr2ogr", "-f", "GeoJSON", `${o}/out.geojson`, i], timeTarget: 1.5 },
  { label: "GeoJSON reprojected to EPSG:3857", slug: "gis.reproject", params: { to: 3857 }, file: geojsonFile, mime: "application/geo+json", native: (i, o) => ["ogr2ogr", "-t_srs", "EPSG:3857", `${o}/out.geojson`, i], timeTarget: 1.5 },
  {
    label: "LAS -> XYZ text",
    slug: "pointcloud.convert",
    params: { format: "xyz" },
    file: once("points.las", writeBigLas),
    mime: "application/vnd.las",
    native: have("pdal") ? (i, o) => ["pdal", "translate", i, `${o}/out.txt`] : null,
    timeTarget: 1.5,
  },
  {
    // autzen_trim.laz's LASzip chunks repeated (the project writes no LAZ of its own; Debian
    // packages neither pdal nor laszip/las2las, so there is no native program to compare).
    label: "LAZ -> LAS",
    slug: "pointcloud.laz-to-las",
    params: {},
    file: once("points.laz", writeBigLaz),
    mime: "application/vnd.laszip",
    native: have("pdal") ? (i, o) => ["pdal", "translate", i, `${o}/out.las`] : null,
    timeTarget: 1.5,
  },
  {
    label: "scanned-pages PDF, rotate 90",
    slug: "pdf.rotate",
    params: { degrees: 90 },
    file: once("scanned.pdf", (path, mb) => writeImagePdf(path, Math.max(2, Math.round(mb / 2 / 8)), Math.min(8, mb / 4) * MiB)),
    mime: "application/pdf",
    native: (i, o) => ["qpdf", i, "--rotate=+90", `${o}/out.pdf`],
    timeTarget: 1.5,
  },
  {
    label: "MPEG-4 video -> WebM",
    slug: "media.transcode",
    params: { to: "webm" },
    // ~mb MB at 40 Mbit/s (5 MB a second) of a 720p test pattern; the noise keeps the encoder at
    // that rate (the bare pattern compresses to a quarter of it, and BIG_MB=1024 gave 270 MB)
    file: once("video.mp4", (path, mb) => sh(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=size=1280x720:rate=25:duration=${Math.max(1, Math.round(mb / 5))},noise=alls=12:allf=t`, "-c:v", "mpeg4", "-b:v", "40M", "-threads", "2", path])),
    mime: "video/mp4",
    native: (i, o) => ["ffmpeg", "-v", "error", "-y", "-i", i, "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "1M", "-an", "-threads", "1", `${o}/out.webm`],
    timeTarget: 4,
  },
  { label: "IFC model info", slug: "bim.ifc-info", params: {}, file: ifcFile, mime: "application/x-step-ifc", native: null, noNative: "none in Debian", timeTarget: 1.5 },
  { label: "IFC -> GLB", slug: "bim.ifc-to-glb", params: {}, file: ifcFile, mime: "application/x-step-ifc", native: null, noNative: "none in Debian", timeTarget: 1.5 },
];

const mb = (bytes: number) => fixed(bytes / MiB);

async function main() {
  const missing = ensureCommands({ ogr2ogr: "gdal-bin", qpdf: "qpdf", ffmpeg: "ffmpeg" });
  if (missing.length) throw new Error(`missing native programs: ${missing.join(", ")}`);
  const server = await startServer(join(dir, "data"), { TOOL_WORKERS: "1", TOOL_MAX_INPUT_MB: String(Math.ceil(BIG_MB * 2)), TOOL_TIMEOUT_MS: String(4 * 3600_000), TOOL_WAIT_MS: "1000" });
  teardown.add(() => server.stop());
  const c: VektorClient = await server.admin();
  const rows: (string | number)[][] = [];
  const upload = (path: string, k: Case) => c.files.upload(Bun.file(path), { filename: path.split("/").pop()!.replace(/^(warm|big)-/, ""), mime: k.mime });
  for (const k of CASES.filter((x) => !ONLY || x.label.includes(ONLY) || x.slug.includes(ONLY))) {
    // The warm-up: the engine loads, and its memory is counted before the measured run.
    const warm = await upload(await k.file(WARM_MB, "warm"), k);
    await c.jobs.wait(await c.t.call<Job>("POST", `/api/tools/${k.slug}`, { fileIds: [warm.fileId], params: k.params }));
    const path = await k.file(BIG_MB, "big");
    const size = statSync(path).size;
    console.log(`[big] ${k.label}: ${mb(size)} MB ...`);
    const t0 = performance.now();
    const { fileId } = await upload(path, k);
    const uploadMs = performance.now() - t0;
    await server.rss.quiesce();
    const before = server.rss.current();
    server.rss.mark();
    const t1 = performance.now();
    let job: Job;
    try {
      job = await c.jobs.wait(await c.t.call<Job>("POST", `/api/tools/${k.slug}`, { fileIds: [fileId], params: k.params }));
    } catch (err) {
      rows.push([k.label, k.slug, mb(size), `refused: ${(err as Error).message}`, "", "", "", "", "", "", ""]);
      continue;
    }
    const runMs = performance.now() - t1;
    const peak = server.rss.mark();
    if (job.status !== "succeeded") {
      rows.push([k.label, k.slug, mb(size), `${job.status}: ${job.errorCode} ${job.error}`, fixed(runMs / 1000, 1), "", `${mb(before)} -> ${mb(peak)}`, "", "", "", ""]);
      continue;
    }
    const t2 = performance.now();
    for (const out of job.outputs) for await (const _ of (await c.files.download(out.fileId)).body!); // streamed, dropped
    const downloadMs = performance.now() - t2;
    const native = k.native ? await timeNative(k.native(path, dir)) : null;
    const memTarget = 3 * size + 200 * MiB;
    rows.push([
      k.label,
      k.slug,
      mb(size),
      `${fixed(uploadMs / 1000, 1)} / ${fixed(runMs / 1000, 1)} / ${fixed(downloadMs / 1000, 1)}`,
      native ? fixed(native.ms / 1000, 1) : (k.noNative ?? "n/a"),
      native ? `${fixed(runMs / native.ms, 2)}x ${runMs / native.ms <= k.timeTarget ? "ok" : "MISS"} (<= ${k.timeTarget}x)` : "",
      `${mb(before)} -> ${mb(peak)} (+${mb(peak - before)})`,
      native ? mb(native.peak) : (k.noNative ?? "n/a"),
      `${mb(memTarget)} ${peak - before <= memTarget ? "ok" : "MISS"}`,
      fixed((peak - before) / size, 2),
      job.outputs.map((o) => `${o.filename} ${mb(o.size)} MB`).join(", "),
    ]);
  }
  printTable(["case", "tool", "input MB", "API s: upload / run / download", "native s", "run / native", "server RSS MB: before -> peak (+worker)", "native peak MB", "+worker target MB", "+worker / input", "outputs"], rows);
}

await main().finally(() => teardown.run());
