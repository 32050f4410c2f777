/**
 * The workflow editor (issue 20), from the web build (built first when stale): its chunk under
 * assets/editor/ (JS + CSS with React Flow, dagre, croner and the editor model; gzip, target
 * < 150 KB), then in Debian's Chromium against the started server, a generated 300-step graph:
 * the time from navigation to every step drawn on the canvas (median of 3 warm loads) and the
 * frame time while a step is dragged (median over the frames of 2 drags of 120 frames; target
 * < 16 ms). Frames are timed with vsync off (--disable-gpu-vsync --disable-frame-rate-limit) and
 * one mousemove per animation frame, so a frame's time is the work it took (script, style,
 * layout, paint), not the display's 60 Hz. `npm run bench -- web` runs it after `web`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { launchChromium } from "../e2e/support/browser";
import { startServer } from "./lib/server";
import { CpuWatch, median, printTable } from "./lib/table";

const root = join(import.meta.dir, "..");
const editorDir = join(root, "web", "dist", "assets", "editor");
const CHUNK_TARGET_KB = 150;
const FRAME_TARGET_MS = 16;
const STEPS = 300;
const LOADS = 3;
const DRAGS = 2;
const FRAMES = 120;

const build = spawnSync(process.execPath, [join(root, "web", "scripts", "ensure-build.mjs")], { stdio: "inherit", env: { ...process.env, BUN_BIN: process.execPath } });
if (build.status !== 0) process.exit(build.status ?? 1);

const kb = (n: number) => (n / 1024).toFixed(1);
const files = readdirSync(editorDir).filter((f) => /\.(js|css)$/.test(f));
const raw = files.reduce((n, f) => n + readFileSync(join(editorDir, f)).length, 0);
const gzip = files.reduce((n, f) => n + gzipSync(readFileSync(join(editorDir, f)), { level: 9 }).length, 0);
console.log("\n## Workflow editor chunk (assets/editor/, loaded when a workflow is opened, not precached)\n");
printTable(["what", "files", "raw KB", "gzip KB", "target", ""], [["JS + CSS", files.length, kb(raw), kb(gzip), `< ${CHUNK_TARGET_KB} KB gzip`, gzip < CHUNK_TARGET_KB * 1024 ? "PASS" : "MISS"]]);

/** 300 steps that charge nothing (one source, merges in rows of 15, each row a chain), laid out on a grid. */
function bigGraph(): string {
  const nodes = [{ id: "source", type: "source.upload", position: { x: 0, y: 0 }, data: { type: "source.upload" } }];
  const edges: { id: string; source: string; target: string }[] = [];
  for (let i = 1; i < STEPS; i++) {
    const row = Math.floor((i - 1) / 15);
    const col = (i - 1) % 15;
    nodes.push({ id: `m${i}`, type: "logic.merge", position: { x: 300 + col * 300, y: row * 110 }, data: { type: "logic.merge" } });
    edges.push({ id: `e${i}`, source: col === 0 ? "source" : `m${i - 1}`, target: `m${i}` });
  }
  return JSON.stringify({ nodes, edges });
}

const watch = new CpuWatch();
const dataDir = mkdtempSync(join(tmpdir(), "vektor-bench-editor-"));
const server = await startServer(dataDir);
const browser = await launchChromium(["--disable-gpu-vsync", "--disable-frame-rate-limit"]);
let drawMs: number[] = [];
let frames: number[] = [];
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(`${server.url}/sign-in`);
  // Signed up and the graph created from the page, so the session is the browser's own.
  const id = await page.evaluate(async (graphJson) => {
    const post = async (path: string, body: unknown) => {
      const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
      return res.json();
    };
    await post("/api/auth/sign-up/email", { name: "bench", email: `editor-${crypto.randomUUID().slice(0, 8)}@example.test`, password: "bench password 123" });
    return ((await post("/api/workflows", { name: "300 steps", graphJson })) as { data: { id: string } }).data.id;
  }, bigGraph());
  const editor = `${server.url}/workflows/${id}`;
  const drawn = (n: number) =>
    page.waitForFunction(
      (count) => {
        const nodes = document.querySelectorAll<HTMLElement>(".react-flow__node");
        return nodes.length >= count && [...nodes].every((el) => el.style.visibility !== "hidden") ? performance.now() : false;
      },
      n,
      { timeout: 120_000, polling: "raf" },
    );
  // A first load fetches the chunk; the measured ones are warm, as the editor usually opens.
  await page.goto(editor);
  await drawn(STEPS);
  for (let i = 0; i < LOADS; i++) {
    await page.goto(editor);
    drawMs.push((await (await drawn(STEPS)).jsonValue()) as number);
  }
  for (let d = 0; d < DRAGS; d++) {
    const node = `m${20 + d * 40}`;
    const transform = () => page.evaluate((n) => document.querySelector<HTMLElement>(`.react-flow__node[data-id="${n}"]`)?.style.transform ?? null, node);
    const before = await transform();
    // React Flow drags with d3-drag: mousedown on the node, mousemove and mouseup on the window.
    const times = await page.evaluate(
      async ({ node, count }) => {
        const el = document.querySelector(`.react-flow__node[data-id="${node}"]`)!;
        const box = el.getBoundingClientRect();
        let x = box.left + box.width / 2;
        let y = box.top + box.height / 2;
        const event = (type: string) => new MouseEvent(type, { bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0, buttons: 1, view: window });
        el.dispatchEvent(event("mousedown"));
        const out: number[] = [];
        await new Promise<void>((done) => {
          let last = 0;
          let n = 0;
          const tick = (t: number) => {
            if (last) out.push(t - last);
            last = t;
            if (n++ > count) return (window.dispatchEvent(event("mouseup")), done());
            x += 3;
            y += n % 2 ? 2 : -1;
            window.dispatchEvent(event("mousemove"));
            requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        });
        return out.slice(1);
      },
      { node, count: FRAMES },
    );
    const after = await transform();
    if (!before || after === before) throw new Error(`the drag did not move ${node}: the measurement would be of nothing`);
    frames.push(...times);
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const sorted = [...frames].sort((a, b) => a - b);
const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
const frameMedian = median(frames);
console.log(`\n## ${STEPS} steps in the editor (Chromium, vsync off)\n`);
printTable(
  ["what", "median ms", "p95 ms", "samples", "target", ""],
  [
    ["navigation to every step drawn (warm)", median(drawMs).toFixed(0), "", drawMs.length, "", ""],
    ["frame while dragging a step", frameMedian.toFixed(1), p95.toFixed(1), frames.length, `< ${FRAME_TARGET_MS} ms`, frameMedian < FRAME_TARGET_MS ? "PASS" : "MISS"],
  ],
);
console.log(`\n${watch.note([server.pid])}`);
if (process.env.BENCH_STRICT === "1" && (gzip >= CHUNK_TARGET_KB * 1024 || frameMedian >= FRAME_TARGET_MS)) process.exit(1);
