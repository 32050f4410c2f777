/**
 * A run page's live updates (issue 21): from a step's end on the server to the browser showing it.
 * The run page (web build, built first when stale) is open in Debian's Chromium on a run that
 * waits at an approval, following the run's event stream (GET /api/workflows/runs/{id}/events);
 * the approval is decided through the API; a MutationObserver in the page notes the wall-clock
 * time each step's status word turns `succeeded` in the Steps list, and the latency is that time
 * minus the step's `finishedAt` as the server recorded it (one machine, one clock; millisecond
 * resolution). Graph: source.upload -> logic.approval -> op.pdf.rotate -> logic.merge ->
 * sink.download on a one-page PDF, so the samples hold steps ended in the decision's own
 * transaction, in a tool job, and in the transitions after it.
 * Target: p50 < 100 ms. `npm run bench -- workflows` runs it with the engine's benchmark.
 *   env  BENCH_WF_EVENT_RUNS (12 runs)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium } from "../e2e/support/browser";
import { smallPdf } from "./lib/inputs";
import { startServer } from "./lib/server";
import { CpuWatch, fixed, printTable } from "./lib/table";

const root = join(import.meta.dir, "..");
const TARGET_P50_MS = 100;
const RUNS = Number(process.env.BENCH_WF_EVENT_RUNS ?? 12);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("BENCH_WF_EVENT_RUNS must be an integer >= 1");

const build = spawnSync(process.execPath, [join(root, "web", "scripts", "ensure-build.mjs")], { stdio: "inherit", env: { ...process.env, BUN_BIN: process.execPath } });
if (build.status !== 0) process.exit(build.status ?? 1);

const node = (id: string, type: string, x: number) => ({ id, type, position: { x, y: 0 }, data: { type } });
const IDS = ["src", "gate", "turn", "join", "dl"];
const graphJson = JSON.stringify({
  nodes: [node("src", "source.upload", 0), node("gate", "logic.approval", 300), node("turn", "op.pdf.rotate", 600), node("join", "logic.merge", 900), node("dl", "sink.download", 1200)],
  edges: IDS.slice(1).map((id, i) => ({ source: IDS[i]!, target: id })),
});

/** Nearest-rank percentile (p in 0..1). */
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]! : NaN;
}

const watch = new CpuWatch();
const dataDir = mkdtempSync(join(tmpdir(), "vektor-bench-events-"));
const server = await startServer(dataDir);
const browser = await launchChromium();
const byStep = new Map<string, number[]>(IDS.slice(1).map((id) => [id, []]));
let polled = 0;
let machine = "";
try {
  const api = await server.admin();
  const [name, value] = api.t.cookie!.split(/=(.*)/s) as [string, string];
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name, value, url: server.url }]);
  const page = await context.newPage();
  const workflow = await api.workflows.create({ name: "Event latency", graphJson });
  const fileId = (await api.files.upload(new Blob([await smallPdf(1)]), { filename: "one.pdf", mime: "application/pdf" })).fileId;
  for (let r = 0; r < RUNS; r++) {
    const { runId } = await api.workflows.run(workflow.id, [fileId]);
    await api.workflows.waitFor(runId, { until: ["waiting_approval"] });
    await page.goto(`${server.url}/workflows/runs/${runId}`);
    await page.locator('[data-live="stream"]').waitFor({ state: "attached", timeout: 30_000 }).catch(() => polled++);
    // Each step's first moment with the word `succeeded`, by node id (shown beside its title).
    await page.evaluate((ids) => {
      const seen: Record<string, number> = {};
      (window as unknown as { seen: Record<string, number> }).seen = seen;
      const look = () => {
        for (const li of document.querySelectorAll<HTMLElement>(".run-step")) {
          const id = li.querySelector(".run-step-head .hint")?.textContent ?? "";
          if (ids.includes(id) && !(id in seen) && li.querySelector(".run-step-head .status-word")?.textContent === "succeeded") seen[id] = Date.now();
        }
      };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
    }, IDS);
    await api.workflows.approve(runId, { decision: "approved" });
    await page.waitForFunction((n) => Object.keys((window as unknown as { seen: Record<string, number> }).seen).length >= n, IDS.length - 1, { timeout: 60_000 });
    const seen = (await page.evaluate(() => (window as unknown as { seen: Record<string, number> }).seen)) as Record<string, number>;
    const detail = await api.workflows.runDetail(runId);
    for (const s of detail.steps) {
      if (!byStep.has(s.nodeId) || !s.finishedAt) continue;
      byStep.get(s.nodeId)!.push(seen[s.nodeId]! - Date.parse(s.finishedAt));
    }
  }
} finally {
  machine = watch.note([server.pid]);
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const all = [...byStep.values()].flat();
const p50 = pct(all, 0.5);
console.log(`\n## Run page: a step's end -> the browser shows it (event stream, Chromium, ${RUNS} runs)\n`);
if (polled) console.log(`NB ${polled} of ${RUNS} pages did not open the event stream and polled: their samples are the poll's.\n`);
printTable(
  ["step", "p50 ms", "p95 ms", "samples", "target", ""],
  [
    ...[...byStep].map(([id, xs]) => [id, fixed(pct(xs, 0.5)), fixed(pct(xs, 0.95)), xs.length, "", ""]),
    ["all steps", fixed(p50), fixed(pct(all, 0.95)), all.length, `p50 < ${TARGET_P50_MS} ms`, p50 < TARGET_P50_MS ? "PASS" : "MISS"],
  ],
);
console.log(`\n${machine}`);
if (process.env.BENCH_STRICT === "1" && !(p50 < TARGET_P50_MS)) process.exit(1);
