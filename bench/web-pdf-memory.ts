/**
 * The memory of the PDF tools that read their input lazily from the picked File in the browser
 * (io.blobInputs, issue 27), measured where the web app runs them: in Debian's Chromium, through
 * the real web app against the real server on 127.0.0.1, signed out, Run on: This device. For each
 * tool and each size in BENCH_PDF_MEMORY_MB (default "32,128"; merge gets two files of half the
 * size), a PDF of scanned-looking pages (8 MB of random pixels and a line of text each, made in
 * code) is run in a fresh page, after a warm-up run of the same tool on a small PDF (so mupdf and
 * the worker are loaded); the renderers' peak RSS is reset just before the big run (`5` in
 * /proc/<pid>/clear_refs), and the rise is the sum over renderers of the peak after the run less
 * the RSS before it. Each measurement runs BENCH_PDF_MEMORY_RUNS times (default 2); the slope
 * between the smallest and the largest size, in bytes per input byte, is what the manifests'
 * `limits.memoryPerInputByte` should be (the highest over runs). Linux only (clear_refs).
 * BENCH_PDF_MEMORY_LEVEL sets pdf.compress's level (default 6, its default), BENCH_PDF_MEMORY_DPI
 * pdf.render-png's dpi (default 96, its default); BENCH_PDF_MEMORY_DEBUG=1 prints each renderer's rise.
 *
 *   bun bench/web-pdf-memory.ts            (or: npm run bench -- web-pdf-memory)
 *   BENCH_PDF_MEMORY_TOOLS=pdf.split,pdf.rotate BENCH_PDF_MEMORY_MB=16,64 bun bench/web-pdf-memory.ts
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeImagePdf } from "../wasm-tools/src/testing/big-pdf";
import { launchChromium } from "../e2e/support/browser";
import { makePdf } from "../e2e/support/inputs";
import { chromiumPids, engineChosen, fillParams, processBytes, resetPeak, waitForDone } from "../e2e/support/web";
import { startServer } from "./lib/server";
import { MiB, printTable } from "./lib/table";

type Browser = Awaited<ReturnType<typeof launchChromium>>;

interface ToolRow {
  slug: string;
  params: Record<string, unknown>;
  /** What the params mean for the table. */
  said: string;
  /** Inputs per run (merge: two of half the size). */
  files: 1 | 2;
}

const LEVEL = Number(process.env.BENCH_PDF_MEMORY_LEVEL ?? 6);
const DPI = Number(process.env.BENCH_PDF_MEMORY_DPI ?? 96);

const TOOLS: ToolRow[] = [
  { slug: "pdf.compress", params: { level: LEVEL }, said: `level ${LEVEL}`, files: 1 },
  { slug: "pdf.extract-text", params: { format: "txt" }, said: "txt, every page", files: 1 },
  { slug: "pdf.merge", params: {}, said: "two files, half the size each", files: 2 },
  { slug: "pdf.render-png", params: { dpi: DPI }, said: `${DPI} dpi, every page`, files: 1 },
  { slug: "pdf.rotate", params: { degrees: 90 }, said: "90, every page", files: 1 },
  { slug: "pdf.split", params: {}, said: "one part per page (default)", files: 1 },
];

const SIZES_MB = (process.env.BENCH_PDF_MEMORY_MB ?? "32,128").split(",").map(Number);
const RUNS = Number(process.env.BENCH_PDF_MEMORY_RUNS ?? 2);
const ONLY = process.env.BENCH_PDF_MEMORY_TOOLS?.split(",");
const PAGE_MB = 8;
const root = join(import.meta.dir, "..");

const build = spawnSync(process.execPath, [join(root, "web", "scripts", "ensure-build.mjs")], { stdio: "inherit", env: { ...process.env, BUN_BIN: process.execPath } });
if (build.status !== 0) process.exit(build.status ?? 1);

/** Resets every renderer's peak to what it holds now; answers each one's RSS then, by pid. */
async function resetPeaks(browser: Browser): Promise<Map<number, number>> {
  const before = new Map<number, number>();
  for (const pid of await chromiumPids(browser, "renderer")) {
    resetPeak(pid);
    before.set(pid, processBytes(pid, "VmRSS"));
  }
  return before;
}

/** The renderers' peak since the reset less their RSS at it, summed (a renderer started since counts whole). */
async function peakRise(browser: Browser, before: Map<number, number>): Promise<number> {
  let rise = 0;
  for (const pid of await chromiumPids(browser, "renderer")) {
    const r = processBytes(pid, "VmHWM") - (before.get(pid) ?? 0);
    if (process.env.BENCH_PDF_MEMORY_DEBUG) console.log(`  pid ${pid}${before.has(pid) ? "" : " (new)"}: +${(r / MiB).toFixed(0)} MB`);
    rise += r;
  }
  return rise;
}

/** Picks `paths`, chooses `row`'s tool and params, and runs it on this device to the end. */
async function run(page: Awaited<ReturnType<Browser["newPage"]>>, row: ToolRow, paths: string[]): Promise<void> {
  await page.getByLabel("Files", { exact: true }).setInputFiles(paths);
  await page.getByLabel("Tool", { exact: true }).selectOption(row.slug);
  await fillParams(page, row.params);
  await engineChosen(page, "This device");
  await page.getByRole("button", { name: "Run" }).click();
  await waitForDone(page, 600_000);
  if (!(await page.getByRole("status").textContent())?.startsWith("Done on this device")) throw new Error(`${row.slug} did not finish on this device`);
}

const dir = mkdtempSync(join(tmpdir(), "vektor-bench-pdf-memory-"));
const line = (n: number) => `Scanned page ${n}`;
/** Writes the inputs of `mb` MB in all for a tool taking `files` inputs; answers their paths and total size. */
function inputs(mb: number, files: 1 | 2): { paths: string[]; bytes: number } {
  const paths: string[] = [];
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const path = join(dir, `scans-${mb}-${files}-${i + 1}.pdf`);
    bytes += writeImagePdf(path, Math.max(1, Math.round(mb / files / PAGE_MB)), PAGE_MB * MiB, line);
    paths.push(path);
  }
  return { paths, bytes };
}

const server = await startServer(join(dir, "data"));
const browser = await launchChromium();
const small = [join(dir, "small-1.pdf"), join(dir, "small-2.pdf")];
for (const [i, path] of small.entries()) writeFileSync(path, await makePdf(2, `Warm-up ${i + 1}`));

/** One measurement: a fresh page, a warm-up run on the small PDF(s), then the big run with the peaks reset just before. */
async function measure(row: ToolRow, paths: string[]): Promise<{ rise: number; seconds: number }> {
  const page = await browser.newPage({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(server.url);
    await page.getByText(/^\d+ tools available\.$/).waitFor({ timeout: 30_000 });
    await run(page, row, small.slice(0, row.files));
    await Bun.sleep(500);
    const before = await resetPeaks(browser);
    const t0 = performance.now();
    await run(page, row, paths);
    const seconds = (performance.now() - t0) / 1000;
    return { rise: await peakRise(browser, before), seconds };
  } finally {
    await page.close();
  }
}

const rows: (string | number)[][] = [];
try {
  for (const row of TOOLS.filter((t) => !ONLY || ONLY.includes(t.slug))) {
    const made = SIZES_MB.map((mb) => inputs(mb, row.files));
    const rises: number[][] = made.map(() => []);
    for (let r = 0; r < RUNS; r++) {
      for (const [i, input] of made.entries()) {
        const { rise, seconds } = await measure(row, input.paths);
        rises[i]!.push(rise);
        console.log(`${row.slug} ${(input.bytes / MiB).toFixed(1)} MB, run ${r + 1}: renderer peak +${(rise / MiB).toFixed(0)} MB in ${seconds.toFixed(1)} s`);
      }
    }
    const [lo, hi] = [made[0]!, made[made.length - 1]!];
    const slopes = rises[0]!.map((_, r) => (rises[rises.length - 1]![r]! - rises[0]![r]!) / (hi.bytes - lo.bytes));
    const best = slopes.indexOf(Math.max(...slopes));
    const intercept = rises[0]![best]! - slopes[best]! * lo.bytes;
    rows.push([
      row.slug,
      row.said,
      ...made.map((m, i) => `${(m.bytes / MiB).toFixed(0)} MB: ${rises[i]!.map((x) => `+${(x / MiB).toFixed(0)}`).join(", ")}`),
      slopes.map((s) => s.toFixed(2)).join(", "),
      (intercept / MiB).toFixed(0),
    ]);
    for (const m of made) for (const p of m.paths) rmSync(p);
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

console.log(`\nRenderer peak rise over one run on this device (MB, each run), slope in bytes per input byte between ${SIZES_MB[0]} and ${SIZES_MB.at(-1)} MB (each run), intercept (MB) of the highest slope:`);
printTable(["tool", "params", ...SIZES_MB.map((mb) => `rise at ${mb} MB`), "slope", "intercept MB"], rows);
