/**
 * Upload/download benchmark: one large file of random (incompressible) bytes through the real
 * server and the official client, beside `cp` of the same file on the same disk.
 *
 *   steps     cp; upload as one PUT (presign -> PUT -> confirm); upload as multipart
 *             (presign -> part URLs + PUTs, 4 at once -> complete -> confirm); download with curl
 *             on a presigned URL into /dev/null (judged: the server's side alone), and for
 *             reference into a file with curl and with the official client (Bun fetch +
 *             Bun.write): there the client's own writes to disk set the pace
 *   targets   each step >= 80% of cp's MB/s; server peak RSS < 300 MB
 *   env       BENCH_UPLOAD_MB (default 1024), BENCH_RUNS (default 3, the median is reported),
 *             BENCH_DIR (default the OS temp dir: file, copies and DATA_DIR all live under it,
 *             so every side reads and writes the same file system)
 *
 * Page cache, decided once for both sides: the source file stays warm in the page cache (it was
 * just written and hashed), and nothing is fsync'ed inside a timed run, because the server does
 * not fsync objects either; timing `cp` + `sync` against an upload without one would compare
 * different work. Before every timed run an untimed `sync` writes back the previous run's dirty
 * pages, so no run pays for the one before it. `cp --reflink=never` so the bytes are really
 * copied on file systems that could share extents (btrfs, xfs).
 */
import { VektorClient } from "@vektor/shared/client";
import type { FileRecord } from "@vektor/shared/schemas/file";
import { randomFillSync } from "node:crypto";
import { existsSync, openSync, readSync, rmSync, statSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureCommands } from "./lib/native";
import { startServer, type BenchServer } from "./lib/server";
import { Teardown } from "./lib/teardown";
import { fixed, CpuWatch, mbps, median, MiB, printTable, repeat } from "./lib/table";

const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
if (!Number.isInteger(SIZE_MB) || SIZE_MB < 8) throw new Error("BENCH_UPLOAD_MB must be an integer >= 8");
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("BENCH_RUNS must be an integer >= 1");
const SIZE = SIZE_MB * MiB;
const TARGET_RATIO = 0.8;
const TARGET_RSS = 300 * MiB;
const MULTIPART = { thresholdMb: Math.min(64, SIZE_MB - 1), partMb: 16, concurrency: 4 };

const teardown = new Teardown("upload", process.env.BENCH_DIR ?? tmpdir());
const work = teardown.dir;
const src = join(work, "source.bin");
const dst = join(work, "copy.bin");
let server: BenchServer | null = null;
teardown.add(() => server?.stop());

/** Random bytes written 8 MiB at a time: a 1 GiB file never sits in memory, and incompressible, so no layer can shortcut it. */
function writeRandomFile(path: string, size: number): void {
  const block = new Uint8Array(8 * MiB);
  const fd = openSync(path, "w");
  try {
    for (let done = 0; done < size; ) {
      const n = Math.min(block.length, size - done);
      randomFillSync(block, 0, n);
      for (let off = 0; off < n; ) off += writeSync(fd, block, off, n - off, done + off);
      done += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** sha256 hex of a file, read through one reused 1 MiB buffer on this thread. */
function sha256File(path: string): string {
  const buf = new Uint8Array(MiB);
  const fd = openSync(path, "r");
  try {
    const hasher = new Bun.CryptoHasher("sha256");
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hasher.update(buf.subarray(0, n));
    return hasher.digest("hex");
  } finally {
    closeSync(fd);
  }
}

/**
 * The ceiling of any upload whose sha256 the server takes: SHA-256 of the (cached) source file
 * alone, on one core. No network, no write.
 */
function sha256OnlyMs(): Promise<number[]> {
  return repeat(RUNS, async () => {
    const t0 = performance.now();
    sha256File(src);
    return performance.now() - t0;
  });
}

/** Untimed: write back the previous run's dirty pages so each run starts from the same state. */
function settle(): void {
  Bun.spawnSync(["sync"]);
}

/**
 * The client's requests, timed by kind through the client's `fetch` option (the upload code is
 * the official one, unchanged). A request ends when its response headers arrive; for a PUT that
 * is after the server has taken (hashed and written) the whole body.
 */
type Phase = "presign" | "part-url" | "put" | "complete" | "confirm";
const PHASE_OF: [RegExp, Phase][] = [
  [/\/api\/files\/presign-upload$/, "presign"],
  [/\/api\/files\/multipart\/part$/, "part-url"],
  [/\/api\/files\/upload\//, "put"],
  [/\/api\/files\/multipart\/complete$/, "complete"],
  [/\/api\/files\/confirm$/, "confirm"],
];
let spans: { phase: Phase; start: number; end: number }[] = [];
const timedFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const path = new URL(String(input)).pathname;
  const phase = PHASE_OF.find(([re]) => re.test(path))?.[1];
  const start = performance.now();
  const res = await fetch(input, init);
  if (phase) spans.push({ phase, start, end: performance.now() });
  return res;
}) as typeof fetch;

/** Wall time of one phase in the last run: first request's start to last response. */
function phaseMs(phase: Phase): number {
  const own = spans.filter((s) => s.phase === phase);
  return own.length ? Math.max(...own.map((s) => s.end)) - Math.min(...own.map((s) => s.start)) : 0;
}

interface Step {
  name: string;
  runsMs: number[];
  rss: number;
  /** Median phase times of the upload steps. */
  phases?: Record<Phase, number>;
  /** False for a row shown for reference only (no PASS/MISS). */
  judged?: boolean;
}

async function measureCp(): Promise<number[]> {
  return repeat(RUNS, async () => {
    rmSync(dst, { force: true });
    settle();
    const t0 = performance.now();
    const cp = Bun.spawn(["cp", "--reflink=never", src, dst]);
    if ((await cp.exited) !== 0) throw new Error(`cp failed with exit code ${cp.exitCode}`);
    const ms = performance.now() - t0;
    if (statSync(dst).size !== SIZE) throw new Error("cp wrote the wrong size");
    return ms;
  });
}

/** RUNS uploads through client.files.upload; every one is checked (size and the server's sha256), all but `keep` deleted. */
async function measureUpload(client: VektorClient, name: string, srcSha: string, keep: boolean): Promise<{ step: Step; kept: FileRecord }> {
  const phases: Record<Phase, number[]> = { presign: [], "part-url": [], put: [], complete: [], confirm: [] };
  let kept: FileRecord | null = null;
  await server!.rss.quiesce();
  server!.rss.mark();
  const runsMs = await repeat(RUNS, async (run) => {
    settle();
    spans = [];
    const t0 = performance.now();
    const rec = await client.files.upload(Bun.file(src), { filename: "bench.bin", mime: "application/octet-stream", concurrency: MULTIPART.concurrency });
    const ms = performance.now() - t0;
    if (rec.size !== SIZE || rec.checksum !== srcSha) throw new Error(`${name}: the server stored ${rec.size} bytes with sha256 ${rec.checksum}`);
    for (const p of Object.keys(phases) as Phase[]) phases[p].push(phaseMs(p));
    if (keep && run === RUNS - 1) kept = rec;
    else await client.files.delete(rec.fileId);
    return ms;
  });
  const rss = server!.rss.mark();
  const medians = Object.fromEntries(Object.entries(phases).map(([p, xs]) => [p, median(xs)])) as Record<Phase, number>;
  return { step: { name, runsMs, rss, phases: medians }, kept: kept! };
}

/**
 * RUNS downloads, each timed from asking for the bytes to the last byte received; the byte
 * count checked every time, and (for a download to `dst`) the file's sha256 once. `fetchTo` is
 * the client under test and answers how many bytes it received.
 */
async function measureDownload(name: string, fetchTo: () => Promise<number>, srcSha: string, judged: boolean): Promise<Step> {
  await server!.rss.quiesce();
  server!.rss.mark();
  const runsMs = await repeat(RUNS, async (run) => {
    rmSync(dst, { force: true });
    settle();
    const t0 = performance.now();
    const received = await fetchTo();
    const ms = performance.now() - t0;
    if (received !== SIZE) throw new Error(`${name} received ${received} bytes, expected ${SIZE}`);
    if (run === 0 && existsSync(dst) && sha256File(dst) !== srcSha) throw new Error(`${name}: the downloaded bytes differ from the source`);
    return ms;
  });
  return { name, runsMs, rss: server!.rss.mark(), judged };
}

/** The official client: its download Response written with Bun.write. */
async function officialDownload(client: VektorClient, fileId: string): Promise<number> {
  const res = await client.files.download(fileId);
  if (!res.ok) throw new Error(`download answered ${res.status}`);
  await Bun.write(dst, res);
  return statSync(dst).size;
}

/**
 * curl on a presign-download URL (the signed route: no cookie), the way a script or another
 * service fetches; into `out` (the file, or /dev/null to time the server's side alone).
 */
async function curlDownload(client: VektorClient, fileId: string, out: string): Promise<number> {
  const { url } = await client.files.presignDownload(fileId);
  if (!url.startsWith("http://127.0.0.1:")) throw new Error(`refusing a non-loopback URL: ${url}`);
  const curl = Bun.spawn(["curl", "--silent", "--show-error", "--fail", "--output", out, "--write-out", "%{size_download}", url], { stderr: "inherit" });
  const [code, written] = await Promise.all([curl.exited, new Response(curl.stdout).text()]);
  if (code !== 0) throw new Error(`curl exited with ${code}`);
  return Number(written);
}

interface Rss {
  /** Peak from process start through sign-up (PGlite's initdb and migrations on a fresh DATA_DIR). */
  startup: number;
  /** Resident after start-up settled: the floor every step starts from. */
  idle: number;
}

function report(cpMs: number[], hashMs: number[], steps: Step[], rss: Rss): boolean {
  const cpRate = mbps(SIZE, median(cpMs));
  const hashRate = mbps(SIZE, median(hashMs));
  const peak = Math.max(...steps.map((s) => s.rss));
  let allPass = true;
  const rows = steps.map((s) => {
    const rate = mbps(SIZE, median(s.runsMs));
    if (s.judged === false) return [s.name, fixed(rate), fixed(cpRate), `${fixed((100 * rate) / cpRate)}%`, fixed(s.rss / MiB), fixed((s.rss - rss.idle) / MiB), "(reference)"];
    const fast = rate >= TARGET_RATIO * cpRate;
    const lean = s.rss < TARGET_RSS;
    allPass &&= fast && lean;
    const verdict = fast && lean ? "PASS" : `MISS (${[!fast && "speed", !lean && "RSS"].filter(Boolean).join(", ")})`;
    return [s.name, fixed(rate), fixed(cpRate), `${fixed((100 * rate) / cpRate)}%`, fixed(s.rss / MiB), fixed((s.rss - rss.idle) / MiB), verdict];
  });
  const db = process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "PGlite";
  console.log(`\nupload/download: ${SIZE_MB} MiB of random bytes, median of ${RUNS}, warm page cache, no fsync; server on ${db} and local disk\n`);
  printTable(
    ["step", "MB/s", "cp MB/s", "% of cp", "server peak RSS MB", "over idle MB", `result (>= ${TARGET_RATIO * 100}% of cp, RSS < ${TARGET_RSS / MiB} MB)`],
    [
      ["cp --reflink=never (same disk)", fixed(cpRate), fixed(cpRate), "100%", "-", "-", "-"],
      ["sha256 of the file alone (1 core, no I/O)", fixed(hashRate), fixed(cpRate), `${fixed((100 * hashRate) / cpRate)}%`, "-", "-", "(ceiling of a checked upload)"],
      ...rows,
    ],
  );
  console.log(`\nserver RSS: peak during transfers ${fixed(peak / MiB)} MB -> ${peak < TARGET_RSS ? "PASS" : "MISS"}; idle ${fixed(rss.idle / MiB)} MB; start-up peak ${fixed(rss.startup / MiB)} MB`);
  console.log(cpu.note(server ? [server.pid] : []));

  // Where an upload's time goes: each phase's wall time (median), for finding the slow part.
  console.log("\nupload phases (median ms; the PUT phase of multipart includes its part-URL calls):\n");
  printTable(
    ["step", "presign", "PUT(s)", "PUT MB/s", "complete", "confirm", "total"],
    steps
      .filter((s) => s.phases)
      .map((s) => {
        const p = s.phases!;
        return [s.name, fixed(p.presign, 1), fixed(p.put), fixed(mbps(SIZE, p.put)), fixed(p.complete, 1), fixed(p.confirm), fixed(median(s.runsMs))];
      }),
  );
  return allPass;
}

const cpu = new CpuWatch();
try {
  console.log(`[upload] writing ${SIZE_MB} MiB of random bytes to ${src}`);
  writeRandomFile(src, SIZE);
  const srcSha = sha256File(src); // also leaves the file warm in the page cache

  console.log(`[upload] cp x${RUNS}, sha256 alone x${RUNS}`);
  const cpMs = await measureCp();
  const hashMs = await sha256OnlyMs();
  rmSync(dst, { force: true });

  server = await startServer(join(work, "data"));
  const client = await server.admin(timedFetch);
  const startup = server.rss.mark();
  await server.rss.quiesce();
  const rss: Rss = { startup, idle: server.rss.current() };
  // The benchmark makes a few hundred requests a minute (64 part URLs + 64 PUTs per multipart run).
  const common = { "ratelimit.per_minute": 1_000_000, "upload.max_size_mb": Math.max(2048, SIZE_MB + 1) };

  console.log(`[upload] single PUT x${RUNS}`);
  await client.admin.setConfig("platform_configs", { ...common, "upload.multipart_threshold_mb": Math.max(2048, SIZE_MB + 1) });
  const single = await measureUpload(client, "upload, single PUT", srcSha, false);

  console.log(`[upload] multipart x${RUNS}`);
  await client.admin.setConfig("platform_configs", { ...common, "upload.multipart_threshold_mb": MULTIPART.thresholdMb, "upload.part_size_mb": MULTIPART.partMb });
  const multi = await measureUpload(client, `upload, multipart ${MULTIPART.partMb} MiB x${MULTIPART.concurrency}`, srcSha, true);

  const fileId = multi.kept.fileId;
  console.log(`[upload] download x${RUNS}`);
  const downloads = [await measureDownload("download -> file (official client)", () => officialDownload(client, fileId), srcSha, false)];
  if (ensureCommands({ curl: "curl" }).length === 0) {
    downloads.push(await measureDownload("download -> file (curl)", () => curlDownload(client, fileId, dst), srcSha, false));
    downloads.push(await measureDownload("download, server side (curl -> /dev/null)", () => curlDownload(client, fileId, "/dev/null"), srcSha, true));
  } else console.log("[upload] curl is missing and could not be installed: no judged download row");

  const pass = report(cpMs, hashMs, [single.step, multi.step, ...downloads], rss);
  // A MISS is a finding, not a crash; BENCH_STRICT=1 turns it into a failing exit code (for CI).
  if (!pass && process.env.BENCH_STRICT === "1") process.exitCode = 1;
} finally {
  await teardown.run();
}
