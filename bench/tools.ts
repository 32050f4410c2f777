/**
 * WASM tools against their native counterparts on Debian: for each tool that has one (qpdf,
 * mutool, pdftotext, ogr2ogr, gdal_translate, ffmpeg, gerbv), the median time of the tool the way
 * the server runs it (a warm WorkerPool of one Bun worker, server/src/tools/pool.ts), the median of
 * the same tool through execute() in this thread, the native command's median, and the ratio
 * pool / native against the target (<= 1.5x; media <= 8x).
 *
 *   inputs    made in code at sizes that take roughly 0.2-2 s natively: many-page PDFs (pdf-lib),
 *             a bloated PDF of raw images, GeoJSON, a GeoTIFF (gdal_translate from generated
 *             pixels), a 30 s WAV, a 4 s test-pattern video (native ffmpeg, lavfi testsrc2), a
 *             generated Gerber layer, and a real board layer from @tracespace/fixtures
 *   method    per tool: one untimed warm-up of each side (the pool's is reported as "cold"), then
 *             rounds of pool, in-process, native(s) interleaved so a busy neighbour hurts all
 *             sides alike; medians. Native commands single-threaded (-threads 1, GDAL_NUM_THREADS=1)
 *             as the WASM builds are; their files live on tmpfs (/dev/shm when there is one), as
 *             the WASM side works in memory
 *   API       then every PDF tool on a 1-page and a 30-page PDF and the GIS tools on 5,000
 *             features through POST /api/tools/{slug} (bench/lib/tool-calls.ts), on PGlite and on
 *             a throwaway PostgreSQL, beside the native program in the same run: median of 15
 *             calls (1 page) or 7 (30 pages, GIS), each split into the server's steps (JOB_TRACE=1:
 *             auth, insert, claim, inputs, transfer, tool, outputs, commit, answer; overlap: the
 *             tool's own run hidden under earlier steps, begun while its job row was inserted) and the wire.
 *             Targets (issue 24): API / native <= 1.5x on 30 pages and GIS; fixed overhead (API
 *             time - the tool's own) p50 <= 5 ms on PGlite, <= 8 ms on PostgreSQL for 1 page.
 *             The 1-page calls are made again back to back (no native run between them), printed
 *             beside the judged figure, not judged, and so is a signed-in request that runs no job
 *             (GET /api/files?limit=1), after a native run and back to back: the part of the
 *             overhead any request pays on this host. Printed after them: how much colder this
 *             machine's caches leave a process after a pause (bench/lib/host-cache.ts), which
 *             decides the fixed overhead more than our code
 *   env       BENCH_QUICK=1 (small inputs, one round: a smoke run), BENCH_RUNS (rounds; default
 *             5, or 3 for tools whose warm run takes > 1 s), BENCH_ONLY (substring of slug or
 *             input label), BENCH_STRICT=1 (exit 1 on a MISS), BENCH_TOOL_WORKER (a worker script
 *             relative to the repo, to A/B a change in the pool), BENCH_TOOLS_PARTS (pool,api:
 *             which parts run; default both), BENCH_TOOLS_DBS (pglite,postgres: the API part's
 *             databases; default both), BENCH_TOOLS_BIG=1 (the big-file mode instead:
 *             bench/tools-big/run.ts, sized by BIG_MB)
 */
import type { ToolOutput } from "@vektor/shared/tools/manifest";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger, execute, nodeModulesWasmLocator, setWasmLocator, TRACESPACE_BOARDS, WorkerPool } from "./lib/deps";
import { bloatedPdf, geojson, gerber, rasterVrt, textPdf, wav } from "./lib/inputs";
import { cacheRetention, cacheRetentionNote } from "./lib/host-cache";
import { ensureCommands, timeCommand } from "./lib/native";
import { Teardown } from "./lib/teardown";
import { CpuWatch, fixed, median, printTable } from "./lib/table";
import { CALL_HEADERS, callRows, measureCalls, overheadOf, type CallCase, type CallFile, type CallResult, type SignedInFloor } from "./lib/tool-calls";
import { startPostgres, type BenchPostgres } from "./lib/postgres";

// BENCH_TOOLS_BIG=1: the big-file mode instead (real-sized inputs through the API; BIG_MB sizes them).
if (process.env.BENCH_TOOLS_BIG === "1") {
  await import("./tools-big/run");
  process.exit(0);
}

const QUICK = process.env.BENCH_QUICK === "1";
const RUNS_ENV = process.env.BENCH_RUNS ? Number(process.env.BENCH_RUNS) : null;
if (RUNS_ENV !== null && !(Number.isInteger(RUNS_ENV) && RUNS_ENV >= 1)) throw new Error("BENCH_RUNS must be an integer >= 1");
const ONLY = process.env.BENCH_ONLY ?? "";
const TIMEOUT_MS = 300_000;

const NATIVE = { qpdf: "qpdf", mutool: "mupdf-tools", pdftotext: "poppler-utils", pdfinfo: "poppler-utils", ogr2ogr: "gdal-bin", ogrinfo: "gdal-bin", gdal_translate: "gdal-bin", ffmpeg: "ffmpeg", gerbv: "gerbv", assimp: "assimp-utils" };
const PARTS = (process.env.BENCH_TOOLS_PARTS ?? "pool,api").split(",");
const DBS = (process.env.BENCH_TOOLS_DBS ?? "pglite,postgres").split(",");

const teardown = new Teardown("tools", existsSync("/dev/shm") ? "/dev/shm" : tmpdir());
const work = teardown.dir;
const inDir = join(work, "in");
const outDir = join(work, "out");
mkdirSync(inDir);
let pool: WorkerPool | null = null;
teardown.add(() => pool?.close());

interface InputFile {
  name: string;
  path: string;
  mime: string;
}
interface Native {
  label: string;
  argv: (inputs: string[], out: string) => string[];
}
interface Case {
  slug: string;
  input: string;
  params: Record<string, unknown>;
  files: InputFile[];
  natives: Native[];
  target: number;
  /** Also print the input's MB per second of the pool median. */
  throughput?: boolean;
}

// ---------------------------------------------------------------- inputs

const size = <T,>(full: T, quick: T) => (QUICK ? quick : full);

function save(name: string, bytes: Uint8Array, mime: string): InputFile {
  const path = join(inDir, name);
  writeFileSync(path, bytes);
  return { name, path, mime };
}

const mb = (path: string) => `${(statSync(path).size / 1e6).toFixed(1)} MB`;

async function makeInputs() {
  const t0 = performance.now();
  const pdfPages = size(1000, 60);
  const splitPages = size(300, 20);
  const renderPages = size(20, 2);
  const bloatPages = size(100, 8);
  const features = size(20_000, 2_000);
  const rasterSide = size(2000, 400);
  const wavSeconds = size(30, 3);
  const videoSeconds = size(4, 1);
  const [pads, traces] = size([8000, 2000], [800, 200]);

  const big = save(`text-${pdfPages}p.pdf`, await textPdf(pdfPages, { lines: 10, label: "Big" }), "application/pdf");
  const small = save(`text-${splitPages}p.pdf`, await textPdf(splitPages, { lines: 10, label: "Small", seed: 2 }), "application/pdf");
  const render = save(`drawing-${renderPages}p.pdf`, await textPdf(renderPages, { lines: 40, label: "Render", seed: 3 }), "application/pdf");
  const bloated = save(`bloated-${bloatPages}p.pdf`, await bloatedPdf(bloatPages), "application/pdf");
  const gj = save(`features-${features}.geojson`, geojson(features), "application/geo+json");

  // GeoTIFF: generated pixels behind a VRT, written as a plain (uncompressed) GeoTIFF by GDAL itself
  const vrt = rasterVrt(inDir, rasterSide, rasterSide);
  const tif = join(inDir, `raster-${rasterSide}.tif`);
  await timeCommand(["gdal_translate", "-q", "-of", "GTiff", vrt, tif]);
  rmSync(join(inDir, "raster.raw"));
  const tiff: InputFile = { name: `raster-${rasterSide}.tif`, path: tif, mime: "image/tiff" };

  const audio = save(`tone-${wavSeconds}s.wav`, wav(wavSeconds), "audio/wav");
  // A test-pattern video with a sine tone, H.264/AAC in MP4 (what phones and cameras hand over)
  const mp4 = join(inDir, `testsrc-${videoSeconds}s.mp4`);
  await timeCommand([
    "ffmpeg", "-nostdin", "-v", "error", "-y",
    "-f", "lavfi", "-i", `testsrc2=size=480x270:rate=30:duration=${videoSeconds}`,
    "-f", "lavfi", "-i", `sine=frequency=440:sample_rate=44100:duration=${videoSeconds}`,
    "-c:v", "libx264", "-preset", "ultrafast", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-shortest", mp4,
  ]);
  const video: InputFile = { name: `testsrc-${videoSeconds}s.mp4`, path: mp4, mime: "video/mp4" };

  const gbr = save(`copper-${pads}pads.gbr`, gerber(pads, traces), "application/vnd.gerber");
  const meshSide = size(1000, 100);
  const stl = save(`grid-${meshSide * meshSide}tri.stl`, gridStl(meshSide), "model/stl");
  const realGerber = join(TRACESPACE_BOARDS, "8bit-mixtape", "mixtape.gto");
  const real: InputFile = { name: "mixtape.gto", path: join(inDir, "mixtape.gto"), mime: "application/vnd.gerber" };
  copyFileSync(realGerber, real.path);

  console.log(`[tools] inputs made in ${((performance.now() - t0) / 1000).toFixed(1)} s under ${inDir}`);
  return { big, small, render, bloated, gj, tiff, audio, video, gbr, real, stl, meshSide, pdfPages, splitPages, renderPages, bloatPages, features, rasterSide, wavSeconds, videoSeconds, pads };
}

/** A binary STL of a wavy height field: `side` x `side / 2` quads, two triangles each (1 M triangles for side 1000). */
function gridStl(side: number): Uint8Array {
  const [nx, ny] = [side, side / 2];
  const count = nx * ny * 2;
  const out = new Uint8Array(84 + 50 * count);
  const view = new DataView(out.buffer);
  view.setUint32(80, count, true);
  const z = (x: number, y: number) => Math.sin(x / 17) * Math.cos(y / 23) * 5;
  let at = 84;
  const corner = (x: number, y: number) => {
    view.setFloat32(at, x, true);
    view.setFloat32(at + 4, y, true);
    view.setFloat32(at + 8, z(x, y), true);
    at += 12;
  };
  for (let y = 0; y < ny; y++) {
    for (let x = 0; x < nx; x++) {
      for (const tri of [[[x, y], [x + 1, y], [x + 1, y + 1]], [[x, y], [x + 1, y + 1], [x, y + 1]]]) {
        at += 12; // normal left zero: readers compute it
        for (const [cx, cy] of tri) corner(cx, cy);
        at += 2;
      }
    }
  }
  return out;
}

/** LibreDWG's test drawings in the repo's fixtures/ (provenance in fixtures/README.md). */
const DRAWING = (name: string): InputFile => ({ name, path: join(import.meta.dir, "..", "fixtures", "drawing", name), mime: name.endsWith(".dwg") ? "image/vnd.dwg" : "image/vnd.dxf" });

const FF = ["ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-y", "-threads", "1", "-filter_threads", "1"];

function cases(i: Awaited<ReturnType<typeof makeInputs>>): Case[] {
  const pdfTarget = 1.5;
  const mediaTarget = 8;
  const videoArgs = (to: "webm" | "mp4") =>
    to === "mp4"
      ? ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "-f", "mp4"]
      : ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-crf", "10", "-b:v", "1M", "-c:a", "libvorbis", "-b:a", "128k", "-f", "webm"];
  const videoMap = ["-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn", "-vf", "scale=trunc(iw/2)*2:-2"];
  return [
    {
      slug: "pdf.compress",
      input: `${i.bloatPages}-page PDF of raw images, ${mb(i.bloated.path)}`,
      params: {},
      files: [i.bloated],
      target: pdfTarget,
      natives: [
        { label: "mutool clean -gggg -z -f -i", argv: ([a], o) => ["mutool", "clean", "-gggg", "-z", "-f", "-i", a, `${o}/out.pdf`] },
        { label: "qpdf --object-streams=generate --compress-streams=y", argv: ([a], o) => ["qpdf", "--object-streams=generate", "--compress-streams=y", a, `${o}/out.pdf`] },
      ],
    },
    {
      slug: "pdf.merge",
      input: `${i.pdfPages} + ${i.splitPages} pages`,
      params: {},
      files: [i.big, i.small],
      target: pdfTarget,
      natives: [{ label: "qpdf --empty --pages a b --", argv: ([a, b], o) => ["qpdf", "--empty", "--pages", a, b, "--", `${o}/out.pdf`] }],
    },
    {
      slug: "pdf.split",
      input: `${i.splitPages} pages -> ${i.splitPages} PDFs`,
      params: {},
      files: [i.small],
      target: pdfTarget,
      natives: [{ label: "qpdf --split-pages", argv: ([a], o) => ["qpdf", "--split-pages", a, `${o}/p-%d.pdf`] }],
    },
    {
      slug: "pdf.rotate",
      input: `${i.pdfPages} pages, ${mb(i.big.path)}`,
      params: { degrees: 90 },
      files: [i.big],
      target: pdfTarget,
      natives: [{ label: "qpdf --rotate=+90", argv: ([a], o) => ["qpdf", "--rotate=+90", a, `${o}/out.pdf`] }],
    },
    {
      slug: "pdf.render-png",
      input: `${i.renderPages} pages at 96 dpi`,
      params: { dpi: 96 },
      files: [i.render],
      target: pdfTarget,
      natives: [{ label: "mutool draw -r 96 -o p%d.png", argv: ([a], o) => ["mutool", "draw", "-q", "-r", "96", "-o", `${o}/p%d.png`, a] }],
    },
    {
      slug: "pdf.extract-text",
      input: `${i.pdfPages} pages`,
      params: { format: "txt" },
      files: [i.big],
      target: pdfTarget,
      natives: [
        { label: "mutool draw -F txt", argv: ([a], o) => ["mutool", "draw", "-q", "-F", "txt", "-o", `${o}/out.txt`, a] },
        { label: "pdftotext", argv: ([a], o) => ["pdftotext", a, `${o}/out.txt`] },
      ],
    },
    {
      slug: "gis.convert",
      input: `GeoJSON -> GeoPackage, ${i.features} features`,
      params: { to: "gpkg" },
      files: [i.gj],
      target: pdfTarget,
      natives: [{ label: "ogr2ogr -f GPKG", argv: ([a], o) => ["ogr2ogr", "-f", "GPKG", `${o}/out.gpkg`, a] }],
    },
    {
      slug: "gis.reproject",
      input: `GeoJSON 4326 -> 3857, ${i.features} features`,
      params: { to: 3857 },
      files: [i.gj],
      target: pdfTarget,
      natives: [{ label: "ogr2ogr -f GeoJSON -t_srs EPSG:3857", argv: ([a], o) => ["ogr2ogr", "-f", "GeoJSON", "-t_srs", "EPSG:3857", `${o}/out.geojson`, a] }],
    },
    {
      slug: "drawing.to-geojson",
      input: `largest DXF fixture, example_2018.dxf, ${mb(DRAWING("example_2018.dxf").path)}`,
      params: {},
      files: [DRAWING("example_2018.dxf")],
      target: pdfTarget,
      natives: [{ label: "ogr2ogr -f GeoJSON", argv: ([a], o) => ["ogr2ogr", "-f", "GeoJSON", `${o}/out.geojson`, a] }],
    },
    {
      // No native tool draws a DWG as SVG: GDAL's CAD driver reading the same R2000 DWG to GeoJSON is the yardstick.
      slug: "drawing.to-svg",
      input: `largest DWG fixture, example_2000.dwg, ${mb(DRAWING("example_2000.dwg").path)}`,
      params: {},
      files: [DRAWING("example_2000.dwg")],
      target: pdfTarget,
      throughput: true,
      natives: [{ label: "ogr2ogr -f GPKG (GDAL CAD driver)", argv: ([a], o) => ["ogr2ogr", "-f", "GPKG", `${o}/out.gpkg`, a] }],
    },
    {
      slug: "mesh.convert",
      input: `binary STL -> GLB, ${(i.meshSide * i.meshSide).toLocaleString("en")} triangles (generated), ${mb(i.stl.path)}`,
      params: { to: "glb" },
      files: [i.stl],
      target: 3,
      natives: [{ label: "assimp export (glb2)", argv: ([a], o) => ["assimp", "export", a, `${o}/out.glb`, "-fglb2"] }],
    },
    {
      slug: "gis.raster-convert",
      input: `GeoTIFF ${i.rasterSide}x${i.rasterSide} RGB -> PNG`,
      params: { to: "png" },
      files: [i.tiff],
      target: pdfTarget,
      natives: [{ label: "gdal_translate -of PNG", argv: ([a], o) => ["gdal_translate", "-q", "-of", "PNG", "-b", "1", "-b", "2", "-b", "3", a, `${o}/out.png`] }],
    },
    {
      slug: "media.transcode",
      input: `WAV ${i.wavSeconds} s stereo -> MP3 192k`,
      params: { to: "mp3" },
      files: [i.audio],
      target: mediaTarget,
      natives: [
        {
          label: "ffmpeg -threads 1 libmp3lame 192k",
          argv: ([a], o) => [...FF, "-i", a, "-map", "0:a:0", "-vn", "-sn", "-dn", "-c:a", "libmp3lame", "-b:a", "192k", "-threads", "1", "-f", "mp3", "-fflags", "+bitexact", `${o}/out.mp3`],
        },
      ],
    },
    {
      slug: "media.transcode",
      input: `MP4 ${i.videoSeconds} s 480x270 -> WebM (VP8)`,
      params: { to: "webm" },
      files: [i.video],
      target: mediaTarget,
      natives: [{ label: "ffmpeg -threads 1 libvpx realtime", argv: ([a], o) => [...FF, "-i", a, ...videoMap, ...videoArgs("webm"), "-threads", "1", "-fflags", "+bitexact", `${o}/out.webm`] }],
    },
    {
      slug: "media.transcode",
      input: `MP4 ${i.videoSeconds} s 480x270 -> MP4 (H.264)`,
      params: { to: "mp4" },
      files: [i.video],
      target: mediaTarget,
      natives: [{ label: "ffmpeg -threads 1 libx264 veryfast", argv: ([a], o) => [...FF, "-i", a, ...videoMap, ...videoArgs("mp4"), "-threads", "1", "-fflags", "+bitexact", `${o}/out.mp4`] }],
    },
    {
      slug: "pcb.gerber-to-svg",
      input: `generated copper layer, ${i.pads} pads`,
      params: {},
      files: [i.gbr],
      target: pdfTarget,
      natives: [{ label: "gerbv -x svg", argv: ([a], o) => ["gerbv", "-x", "svg", "-o", `${o}/out.svg`, a] }],
    },
    {
      slug: "pcb.gerber-to-svg",
      input: `tracespace 8bit-mixtape silkscreen, ${mb(i.real.path)}`,
      params: {},
      files: [i.real],
      target: pdfTarget,
      natives: [{ label: "gerbv -x svg", argv: ([a], o) => ["gerbv", "-x", "svg", "-o", `${o}/out.svg`, a] }],
    },
  ];
}

// ---------------------------------------------------------------- measuring

const bytesOf = (outputs: ToolOutput[]) => outputs.reduce((s, o) => s + o.bytes.byteLength, 0);

function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((s, f) => s + statSync(join(dir, f)).size, 0);
}

interface Measured {
  c: Case;
  pool: number[];
  poolCold: number;
  inproc: number[];
  native: number[][];
  wasmBytes: number;
  nativeBytes: number[];
  error?: string;
}

async function measure(c: Case): Promise<Measured> {
  const inputs = c.files.map((f) => ({ name: f.name, mime: f.mime, bytes: new Uint8Array(readFileSync(f.path)) }));
  // The pool transfers (detaches) input buffers, as the runner's are: a fresh copy per run, made untimed.
  const fresh = () => inputs.map((x) => ({ ...x, bytes: x.bytes.slice() }));
  let n = 0;
  const viaPool = async () => {
    const task = { id: `bench-${n++}`, slug: c.slug, inputs: fresh(), params: c.params, timeoutMs: TIMEOUT_MS };
    const t0 = performance.now();
    const outcome = await pool!.run(task);
    const ms = performance.now() - t0;
    if (!outcome.ok) throw new Error(`${c.slug} in the pool: ${outcome.error.code}: ${outcome.error.message}`);
    return { ms, bytes: bytesOf(outcome.outputs) };
  };
  const inProcess = async () => {
    const copy = fresh();
    const t0 = performance.now();
    const outputs = await execute(c.slug, copy, c.params);
    return { ms: performance.now() - t0, bytes: bytesOf(outputs) };
  };
  const native = async (k: number) => {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir);
    const ms = await timeCommand(c.natives[k].argv(c.files.map((f) => f.path), outDir), { env: { GDAL_NUM_THREADS: "1", OMP_NUM_THREADS: "1" } });
    return { ms, bytes: dirBytes(outDir) };
  };

  const m: Measured = { c, pool: [], poolCold: 0, inproc: [], native: c.natives.map(() => []), wasmBytes: 0, nativeBytes: [] };
  // warm-up: each side once, untimed (the pool's first run is the cold start: WASM compile and init)
  const cold = await viaPool();
  m.poolCold = cold.ms;
  m.wasmBytes = cold.bytes;
  const warm = await viaPool(); // second pool run decides how many rounds fit
  await inProcess();
  for (let k = 0; k < c.natives.length; k++) m.nativeBytes[k] = (await native(k)).bytes;
  const rounds = QUICK ? 1 : (RUNS_ENV ?? (warm.ms > 1000 ? 3 : 5));
  m.pool.push(warm.ms);
  for (let r = 0; r < rounds; r++) {
    if (r > 0) m.pool.push((await viaPool()).ms);
    m.inproc.push((await inProcess()).ms);
    for (let k = 0; k < c.natives.length; k++) m.native[k].push((await native(k)).ms);
  }
  return m;
}

// ---------------------------------------------------------------- through the API

/** Every PDF tool on `pages`-page PDFs (two for merge) and, with the 30-page ones, the GIS tools on 5,000 features. */
async function callCases(pages: number, gj: CallFile | null): Promise<CallCase[]> {
  const small = pages === 1;
  const a = save(`api-${pages}p-a.pdf`, await textPdf(pages, { lines: 10, label: "A" }), "application/pdf");
  const b = save(`api-${pages}p-b.pdf`, await textPdf(pages, { lines: 10, label: "B", seed: 2 }), "application/pdf");
  const input = small ? "1 page" : `${pages} pages`;
  const pdf = (slug: string, params: Record<string, unknown>, label: string, argv: CallCase["native"]["argv"], files = [a]): CallCase => ({
    slug,
    input: slug === "pdf.merge" ? `2 x ${input}` : slug === "pdf.split" && !small ? `${input} -> ${pages} PDFs` : input,
    params,
    files,
    native: { label, argv },
    target: 1.5,
    small,
  });
  const cases = [
    pdf("pdf.compress", {}, "qpdf --object-streams=generate --compress-streams=y", ([x], o) => ["qpdf", "--object-streams=generate", "--compress-streams=y", x, `${o}/out.pdf`]),
    pdf("pdf.merge", {}, "qpdf --empty --pages a b --", ([x, y], o) => ["qpdf", "--empty", "--pages", x, y, "--", `${o}/out.pdf`], [a, b]),
    pdf("pdf.rotate", { degrees: 90 }, "qpdf --rotate=+90", ([x], o) => ["qpdf", "--rotate=+90", x, `${o}/out.pdf`]),
    pdf("pdf.split", {}, "qpdf --split-pages", ([x], o) => ["qpdf", "--split-pages", x, `${o}/p-%d.pdf`]),
    pdf("pdf.metadata", {}, "pdfinfo", ([x]) => ["pdfinfo", x]),
    pdf("pdf.extract-text", { format: "txt" }, "pdftotext", ([x], o) => ["pdftotext", x, `${o}/out.txt`]),
    pdf("pdf.render-png", { dpi: 96 }, "mutool draw -r 96", ([x], o) => ["mutool", "draw", "-q", "-r", "96", "-o", `${o}/p%d.png`, x]),
  ];
  if (!gj) return cases;
  const gis = (slug: string, params: Record<string, unknown>, label: string, argv: CallCase["native"]["argv"]): CallCase => ({ slug, input: "GeoJSON, 5,000 features", params, files: [gj], native: { label, argv }, target: 1.5 });
  return [
    ...cases,
    gis("gis.info", {}, "ogrinfo -al -so", ([x]) => ["ogrinfo", "-al", "-so", x]),
    gis("gis.reproject", { to: 3857 }, "ogr2ogr -t_srs EPSG:3857", ([x], o) => ["ogr2ogr", "-f", "GeoJSON", "-t_srs", "EPSG:3857", `${o}/out.geojson`, x]),
  ];
}

/** The API part on each database in DBS; prints the table. Answers whether every row passed. */
async function apiPart(): Promise<boolean> {
  const gj = save("api-features-5000.geojson", geojson(QUICK ? 500 : 5000), "application/geo+json");
  const cases = [...(await callCases(1, null)), ...(await callCases(QUICK ? 3 : 30, gj))].filter((c) => !ONLY || c.slug.includes(ONLY) || c.input.includes(ONLY));
  const runs = (c: CallCase) => (QUICK ? 3 : (RUNS_ENV ?? (c.small ? 15 : c.slug === "pdf.render-png" ? 3 : 7)));
  const log = (msg: string) => console.log(`[tools api] ${msg}`);
  const all: { db: string; results: CallResult[]; floor: SignedInFloor }[] = [];
  for (const db of DBS) {
    let pg: BenchPostgres | null = null;
    try {
      if (db === "postgres") pg = await startPostgres();
      log(`${db}: a fresh server (ROLE=all, JOB_TRACE=1)`);
      const { results, floor } = await measureCalls({ dataDir: join(work, `api-${db}`), databaseUrl: pg?.url, outDir, cases, runs, log });
      all.push({ db: db === "postgres" ? "PostgreSQL" : "PGlite", results, floor });
    } finally {
      await pg?.stop();
    }
  }
  let pass = true;
  const rows = all.flatMap(({ db, results }) => {
    const t = callRows(db, results);
    pass &&= t.pass;
    return t.rows;
  });
  console.log(`\ntools through the API: POST /api/tools/{slug} on a fresh server (one process), medians; the steps from the server's Server-Timing (JOB_TRACE=1), wire = the rest of what the client saw\n`);
  printTable(CALL_HEADERS, rows);
  console.log("\nfixed overhead of a call on a 1-page PDF (API time - the tool's own run), every PDF tool's calls together; beside it, what a signed-in request that runs no job costs on this host (GET /api/files?limit=1, answered from memory), timed the same way:\n");
  // Judged on calls that each follow a native run (the host's caches as an idle server finds
  // them); the calls back to back are printed beside them to show what that pause costs. p10
  // beside p50: on a busy machine the low end shows what the path itself costs.
  const quantiles = (xs: number[]) => {
    const at = (q: number) => fixed(xs[Math.floor(xs.length * q)] ?? NaN, 2);
    return [xs.length, at(0.1), fixed(median(xs), 2), at(0.9)];
  };
  printTable(
    ["db", "calls", "n", "p10 ms", "p50 ms", "p90 ms", "target", "result"],
    all.flatMap(({ db, results, floor }) => {
      const small = results.filter((r) => r.c.small && !r.error);
      const xs = small.flatMap((r) => r.calls.map(overheadOf)).sort((x, y) => x - y);
      const warm = small.flatMap((r) => r.backToBack.map(overheadOf)).sort((x, y) => x - y);
      const limit = db === "PGlite" ? 5 : 8;
      const p50 = median(xs);
      pass &&= p50 <= limit;
      return [
        [db, "each after a native run", ...quantiles(xs), `p50 <= ${limit} ms`, p50 <= limit ? "PASS" : "MISS"],
        [db, "back to back (not judged)", ...quantiles(warm), "-", "-"],
        ...(floor.afterNative.length
          ? [
              [db, "GET /api/files, each after a native run (no job; not judged)", ...quantiles(floor.afterNative.sort((x, y) => x - y)), "-", "-"],
              [db, "GET /api/files, back to back (no job; not judged)", ...quantiles(floor.backToBack.sort((x, y) => x - y)), "-", "-"],
            ]
          : []),
      ];
    }),
  );
  console.log(`\n${cacheRetentionNote(await cacheRetention())}`);
  console.log(`\nnative programs: ${[...new Set(cases.map((c) => `${c.slug}: ${c.native.label}`))].join("; ")}`);
  return pass;
}

// ---------------------------------------------------------------- main

const cpu = new CpuWatch();
let failed = false;
try {
  const missing = ensureCommands(NATIVE);
  if (missing.length) console.warn(`[tools] not available even after apt-get: ${missing.join(", ")}; their rows are skipped`);
  setWasmLocator(nodeModulesWasmLocator); // in-process runs read the WASM from node_modules, as the server's workers do
  const apiPass = PARTS.includes("api") ? await apiPart() : true;
  if (!apiPass && process.env.BENCH_STRICT === "1") process.exitCode = 1;
  if (PARTS.includes("pool")) await poolPart(missing);
  console.log(cpu.note());
  if (failed) process.exitCode = 1;
} finally {
  await teardown.run();
}

/** The tools in a warm WorkerPool and in-process beside their native programs; prints the tables. */
async function poolPart(missing: string[]): Promise<void> {
  const inputs = await makeInputs();
  // BENCH_TOOL_WORKER: another worker script to A/B a change in the pool
  const workerUrl = process.env.BENCH_TOOL_WORKER ? Bun.pathToFileURL(join(import.meta.dir, "..", process.env.BENCH_TOOL_WORKER)).href : undefined;
  if (workerUrl) console.log(`[tools] pool worker script: ${process.env.BENCH_TOOL_WORKER}`);
  pool = new WorkerPool(1, createLogger("silent"), { workerUrl });
  const all = cases(inputs).filter((c) => !ONLY || c.slug.includes(ONLY) || c.input.includes(ONLY));
  const results: Measured[] = [];
  for (const c of all) {
    const natives = c.natives.filter((n) => !missing.includes(n.argv(["a", "b"], "o")[0]));
    if (natives.length === 0) continue;
    const t0 = performance.now();
    try {
      const m = await measure({ ...c, natives });
      results.push(m);
      console.log(`[tools] ${c.slug} (${c.input}): pool ${fixed(median(m.pool))} ms, in-process ${fixed(median(m.inproc))} ms, native ${m.native.map((xs) => fixed(median(xs))).join(" / ")} ms  [${((performance.now() - t0) / 1000).toFixed(0)} s]`);
    } catch (err) {
      failed = true;
      console.error(`[tools] ${c.slug} (${c.input}) failed: ${(err as Error).message}`);
      results.push({ c: { ...c, natives }, pool: [], poolCold: 0, inproc: [], native: natives.map(() => []), wasmBytes: 0, nativeBytes: [], error: (err as Error).message.slice(0, 80) });
    }
  }

  let allPass = true;
  const rows: (string | number)[][] = [];
  const detail: (string | number)[][] = [];
  for (const m of results) {
    m.c.natives.forEach((n, k) => {
      if (m.error) {
        allPass = false;
        rows.push([m.c.slug, m.c.input, "-", "-", "-", "-", `<= ${m.c.target}x`, `ERROR ${m.error}`]);
        return;
      }
      const wasm = median(m.pool);
      const nat = median(m.native[k]);
      const ratio = wasm / nat;
      const pass = ratio <= m.c.target;
      if (k === 0) allPass &&= pass;
      rows.push([`${m.c.slug}${k ? " (alt.)" : ""}`, m.c.input, fixed(wasm), fixed(median(m.inproc)), fixed(nat), `${ratio.toFixed(2)}x`, `<= ${m.c.target}x`, pass ? "PASS" : "MISS"]);
      detail.push([m.c.slug, m.c.input, n.label, fixed(m.poolCold), `${fixed(Math.min(...m.pool))}-${fixed(Math.max(...m.pool))}`, `${fixed(Math.min(...m.native[k]))}-${fixed(Math.max(...m.native[k]))}`, m.pool.length, kb(m.wasmBytes), kb(m.nativeBytes[k])]);
    });
  }

  console.log(`\ntools: WASM (warm WorkerPool of 1 Bun worker, as the server runs it; and execute() in-process) vs native Debian tools, medians${QUICK ? " (BENCH_QUICK: small inputs, one round)" : ""}\n`);
  printTable(["tool", "input", "WASM pool median ms", "in-process median ms", "native median ms", "ratio", "target", "result"], rows);
  console.log("\nper row: native command, pool cold start (first run: WASM compile and init), spread of the timed runs, output sizes\n");
  printTable(["tool", "input", "native command", "pool cold ms", "pool min-max ms", "native min-max ms", "runs", "WASM out KB", "native out KB"], detail);
  console.log(`\n(the "(alt.)" rows are a second native reference; PASS/MISS of the tool is decided by its first row)`);
  for (const m of results.filter((r) => r.c.throughput && !r.error)) {
    const bytes = m.c.files.reduce((sum, f) => sum + statSync(f.path).size, 0);
    console.log(`throughput: ${m.c.slug} (${m.c.input}): ${(bytes / 1e6 / (median(m.pool) / 1000)).toFixed(2)} MB/s (WASM pool median)`);
  }
  if ((failed || !allPass) && process.env.BENCH_STRICT === "1") process.exitCode = 1;
}

function kb(bytes: number): string {
  return bytes ? fixed(bytes / 1024) : "-";
}
