/** The worker pool with real Bun workers and real tools: timeout, crash replacement, cancel. */
import { afterAll, describe, expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { featureCollection, manyFeatures } from "@vektor/wasm-tools/gis/testing/fixtures";
import { openFilesIn } from "@vektor/wasm-tools/testing/host-files";
import { createLogger } from "../log";
import { WorkerPool } from "./pool";

const log = createLogger("silent");
const pools: WorkerPool[] = [];
afterAll(() => Promise.all(pools.map((p) => p.close())));

function pool(size: number, workerUrl?: string, startupTimeoutMs?: number) {
  const p = new WorkerPool(size, log, { workerUrl, startupTimeoutMs });
  pools.push(p);
  return p;
}

async function pdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`page ${i + 1}`, { x: 50, y: 780, size: 18, font });
  return doc.save();
}

const SLOW_START = new URL("./slow-start-worker.fixture.ts", import.meta.url).href;
const COUNTING = new URL("./counting-worker.fixture.ts", import.meta.url).href;

/** The run count the counting fixture answered: 1 from a fresh worker. */
async function runsOf(p: WorkerPool, id: string, ms = 0): Promise<number> {
  const out = await p.run({ id, slug: "test.count", inputs: [], params: { ms }, timeoutMs: 60_000 });
  if (!out.ok) throw new Error(out.error.message);
  const [first] = out.outputs;
  if (!("bytes" in first)) throw new Error("the fixture answers bytes");
  return first.bytes[0];
}

const input = async (pages: number) => [{ name: "in.pdf", bytes: await pdf(pages), mime: "application/pdf" }];

describe("WorkerPool", () => {
  test("runs a real tool and returns its outputs, with the tool's own run as the worker timed it", async () => {
    const p = pool(1);
    const t0 = performance.now();
    const out = await p.run({ id: "a", slug: "pdf.split", inputs: await input(3), params: {}, timeoutMs: 60_000 });
    const wall = performance.now() - t0;
    expect(out.ok && out.outputs.length).toBe(3);
    // The fresh worker loaded mupdf first: that, and the hops, are not the tool's own run.
    const ranMs = out.ok ? out.ranMs : undefined;
    expect(ranMs).toBeGreaterThan(0);
    expect(ranMs).toBeLessThan(wall);
  });

  test("with a staging folder the worker writes the outputs itself: each a file of its own with the bytes' sha256, none held back as bytes", async () => {
    const p = pool(1);
    const staging = join(mkdtempSync(join(tmpdir(), "vektor-staging-")), "staged");
    const out = await p.run({ id: "s", slug: "pdf.split", inputs: await input(2), params: {}, staging, timeoutMs: 60_000 });
    if (!out.ok) throw new Error(out.error.message);
    expect(out.outputs.map((o) => o.bytes.byteLength)).toEqual([0, 0]);
    for (const o of out.outputs) {
      const bytes = readFileSync(o.staged!.path);
      expect(o.staged!.path.startsWith(staging)).toBe(true);
      expect(o.staged!.size).toBe(bytes.byteLength);
      expect(o.staged!.sha256).toBe(new Bun.CryptoHasher("sha256").update(bytes).digest("hex"));
      expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
    }
    rmSync(dirname(staging), { recursive: true, force: true });
  });

  test("a run past its timeout is stopped (TIMEOUT) and the next run works on a fresh worker", async () => {
    const p = pool(1);
    const slow = await p.run({ id: "slow", slug: "pdf.render-png", inputs: await input(40), params: { dpi: 300 }, timeoutMs: 50 });
    expect(slow).toEqual({ ok: false, error: { code: "TIMEOUT", message: expect.stringContaining("longer than") } });
    const next = await p.run({ id: "next", slug: "pdf.split", inputs: await input(2), params: {}, timeoutMs: 60_000 });
    expect(next.ok).toBe(true);
  });

  test("loading the engine is not on the run's clock: a 600 ms cold start under a 400 ms timeout succeeds (the 20 ms run has 20x room on a busy machine)", async () => {
    const p = pool(1, SLOW_START);
    for (const id of ["first", "second"]) {
      const out = await p.run({ id, slug: "test.slow-start", inputs: await input(1), params: {}, timeoutMs: 400 });
      expect(out.ok).toBe(true);
    }
  });

  test("a worker that never finishes loading is stopped by the start-up guard and replaced", async () => {
    const p = pool(1, SLOW_START, 1500);
    const hung = await p.run({ id: "h", slug: "test.hang-start", inputs: await input(1), params: {}, timeoutMs: 60_000 });
    expect(hung).toEqual({ ok: false, error: { code: "WORKER_CRASHED", message: "The tool worker did not load test.hang-start within 1.5 s; the job did not run" } });
    expect(await p.run({ id: "after", slug: "test.slow-start", inputs: await input(1), params: {}, timeoutMs: 400 })).toMatchObject({ ok: true });
  });

  test("a timeout is said in a unit that fits it", async () => {
    const p = pool(1);
    const slow = await p.run({ id: "unit", slug: "pdf.render-png", inputs: await input(40), params: { dpi: 300 }, timeoutMs: 300 });
    expect(!slow.ok && slow.error.message).toBe("The tool ran longer than 300 ms and was stopped");
  });

  test("a worker that dies mid-run gives WORKER_CRASHED and is replaced", async () => {
    const p = pool(1, new URL("./crash-worker.fixture.ts", import.meta.url).href);
    const crashed = await p.run({ id: "c", slug: "test.crash", inputs: await input(1), params: {}, timeoutMs: 60_000 });
    expect(crashed.ok).toBe(false);
    expect(!crashed.ok && crashed.error.code).toBe("WORKER_CRASHED");
    const after = await p.run({ id: "d", slug: "pdf.split", inputs: await input(2), params: {}, timeoutMs: 60_000 });
    expect(after.ok).toBe(true);
  });

  test("an aborted run ends CANCELLED at once", async () => {
    const p = pool(1);
    const ctl = new AbortController();
    const started = Date.now();
    const run = p.run({ id: "x", slug: "pdf.render-png", inputs: await input(40), params: { dpi: 300 }, timeoutMs: 60_000, signal: ctl.signal });
    setTimeout(() => ctl.abort(), 100);
    const res = await run;
    expect(!res.ok && res.error.code).toBe("CANCELLED");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test("a run on host files that is cancelled, or times out, leaves none of them open in the server (GDAL holds its input and output open for the whole run)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vektor-pool-files-"));
    try {
      const content = featureCollection(manyFeatures(60_000));
      const path = join(dir, "in", "many.geojson");
      mkdirSync(dirname(path));
      writeFileSync(path, content);
      const p = pool(1);
      for (const end of ["CANCELLED", "TIMEOUT"] as const) {
        const outputDir = join(dir, end);
        mkdirSync(outputDir);
        const ctl = new AbortController();
        let openMidRun: string[] = [];
        const cancelMidRun = () =>
          setTimeout(() => {
            openMidRun = openFilesIn(dir);
            ctl.abort();
          }, 300);
        const inputs = [{ name: "many.geojson", bytes: content.slice(0, 1024), path, size: content.byteLength, mime: "application/geo+json" }];
        const res = await p.run({ id: end, slug: "gis.convert", inputs, params: { to: "gpkg" }, outputDir, timeoutMs: end === "TIMEOUT" ? 300 : 60_000, signal: ctl.signal, onStarted: end === "CANCELLED" ? cancelMidRun : undefined });
        expect(!res.ok && res.error.code).toBe(end);
        await p.ended();
        expect(openFilesIn(dir), end).toEqual([]);
        if (end === "CANCELLED") expect(openMidRun).toContain(path); // what the run had open when it was cancelled
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("two outputs that are views of one buffer both arrive (the worker copies what it cannot transfer alone)", async () => {
    const p = pool(1, new URL("./shared-buffer-worker.fixture.ts", import.meta.url).href);
    const out = await p.run({ id: "views", slug: "test.shared-buffer", inputs: await input(1), params: {}, timeoutMs: 60_000 });
    expect(out.ok).toBe(true);
    expect(out.ok && out.outputs.map((o) => [...o.bytes])).toEqual([[1, 2, 3], [4, 5, 6, 7, 8]]);
  });

  test("two workers run two jobs at the same time", async () => {
    const p = pool(2);
    const inputs = await input(2);
    const [a, b] = await Promise.all([0, 1].map((i) => p.run({ id: `p${i}`, slug: "pdf.split", inputs: [{ ...inputs[0], bytes: inputs[0].bytes.slice() }], params: {}, timeoutMs: 60_000 })));
    expect(a.ok && b.ok).toBe(true);
  });

  test("recycleIdle gives each idle worker's place to a fresh one, and leaves a running one to finish", async () => {
    const p = pool(1, COUNTING);
    expect([await runsOf(p, "c1"), await runsOf(p, "c2")]).toEqual([1, 2]);
    p.recycleIdle();
    expect(await runsOf(p, "c3")).toBe(1);
    // Recycled once the worker says the run began: it then sleeps 3 s, room for a busy machine's late timers.
    let began!: () => void;
    const started = new Promise<void>((r) => (began = r));
    const running = p.run({ id: "c4", slug: "test.count", inputs: [], params: { ms: 3000 }, timeoutMs: 60_000, onStarted: began });
    await started;
    p.recycleIdle();
    const out = await running;
    expect(out.ok && "bytes" in out.outputs[0] && out.outputs[0].bytes[0]).toBe(2);
    expect(await runsOf(p, "c5")).toBe(3);
  });
});
