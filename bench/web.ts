/**
 * The web app, from its build (web/dist, built first when stale): the app shell the service
 * worker precaches (HTML + JS + CSS, gzip; target < 300 KB) and, per tool family, what its first
 * use downloads (worker chunks and WASM, cached from then on). Then in Debian's Chromium against
 * the real server on 127.0.0.1 (lib/web-browser.ts): the bytes a first visit fetches (target: no
 * tool WASM), and per family the time from Run to the first result on this device, cold (fresh
 * profile, the family's WASM not cached) and warm (the next run in the same page), beside the
 * same tool through the server (upload + run + download with the official client; the server's
 * first run of the tool, then its second). Before that, the bytes over the wire of the first
 * visit and of each family's first use, before and after compression (the build's brotli copies;
 * targets: shell < 150 KB, each engine at most 45 % of its raw size).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { startServer } from "./lib/server";
import { CpuWatch, printTable } from "./lib/table";
import { measureWeb } from "./lib/web-browser";

const root = join(import.meta.dir, "..");
const dist = join(root, "web", "dist");
const SHELL_TARGET_KB = 300;

const build = spawnSync(process.execPath, [join(root, "web", "scripts", "ensure-build.mjs")], { stdio: "inherit", env: { ...process.env, BUN_BIN: process.execPath } });
if (build.status !== 0) process.exit(build.status ?? 1);

const kb = (n: number) => (n / 1024).toFixed(1);
const file = (url: string) => join(dist, url.replace(/^\//, ""));

/** The precache list written into sw.js by vite-plugin-pwa. */
const precached = [...new Set([...readFileSync(join(dist, "sw.js"), "utf8").matchAll(/url:\s*"([^"]+)"/g)].map((m) => m[1]))];
const shell = precached.filter((url) => /\.(html|js|css)$/.test(url));
const raw = shell.reduce((n, url) => n + statSync(file(url)).size, 0);
const gzip = shell.reduce((n, url) => n + gzipSync(readFileSync(file(url)), { level: 9 }).length, 0);
const others = precached.length - shell.length;

console.log("\n## Web app shell (precached by the service worker)\n");
printTable(
  ["what", "files", "raw KB", "gzip KB", "target", ""],
  [["HTML + JS + CSS", shell.length, kb(raw), kb(gzip), `< ${SHELL_TARGET_KB} KB gzip`, gzip < SHELL_TARGET_KB * 1024 ? "PASS" : "MISS"], ["icons, manifest, family map", others, "", "", "", ""]],
);

const map = JSON.parse(readFileSync(join(dist, "tool-families.json"), "utf8")) as { families: Record<string, string[]>; all: string[] };
const wasmPrecached = precached.filter((url) => /\.(wasm|data)$/.test(url)).length;
console.log("\n## Tool families (downloaded on first use, then kept offline)\n");
printTable(
  ["family", "files", "MB (WASM included)"],
  Object.entries(map.families).map(([family, files]) => [family, files.length, (files.reduce((n, url) => n + statSync(file(url)).size, 0) / 1024 / 1024).toFixed(1)]),
);
console.log(`\nWASM files in the precache: ${wasmPrecached} (target 0: ${wasmPrecached === 0 ? "PASS" : "MISS"})`);

/**
 * What travels for `urls` from the real server: as is (no Accept-Encoding), and as Chromium asks
 * (`br, gzip`: the build's precompressed copies), bodies counted undecoded.
 */
async function overTheWire(base: string, urls: string[]): Promise<{ raw: number; sent: number }> {
  let raw = 0;
  let sent = 0;
  for (const url of urls) {
    for (const encoding of ["identity", "gzip, deflate, br"]) {
      const res = await fetch(base + url, { headers: { "accept-encoding": encoding }, decompress: false } as RequestInit);
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      const n = (await res.arrayBuffer()).byteLength;
      if (encoding === "identity") raw += n;
      else sent += n;
    }
  }
  return { raw, sent };
}

const SHELL_WIRE_TARGET_KB = 150;
const ENGINE_TARGET = 0.45;
const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)} %`;
/** Printed after the run; true when a target of the compression table was missed. */
let wireMissed = false;

async function printWire(base: string): Promise<void> {
  const first = await overTheWire(base, ["/", "/sw.js", ...precached.map((u) => `/${u.replace(/^\//, "")}`)]);
  const rows: (string | number)[][] = [["first visit (page, sw.js, precache)", kb(first.raw), kb(first.sent), pct(first.sent, first.raw), `< ${SHELL_WIRE_TARGET_KB} KB`, first.sent < SHELL_WIRE_TARGET_KB * 1024 ? "PASS" : "MISS"]];
  wireMissed ||= first.sent >= SHELL_WIRE_TARGET_KB * 1024;
  for (const [family, files] of Object.entries(map.families)) {
    const all = await overTheWire(base, files);
    const engine = await overTheWire(base, files.filter((u) => /\.(wasm|data)$/.test(u)));
    const ok = engine.raw === 0 || engine.sent <= engine.raw * ENGINE_TARGET;
    wireMissed ||= !ok;
    rows.push([`first use: ${family}`, kb(all.raw), kb(all.sent), pct(all.sent, all.raw), `engine ${kb(engine.sent)} of ${kb(engine.raw)} KB = ${engine.raw ? pct(engine.sent, engine.raw) : "-"} (<= ${ENGINE_TARGET * 100} %)`, ok ? "PASS" : "MISS"]);
  }
  console.log("\n## Bytes over the wire, before (identity) and after compression (brotli, as Chromium asks)\n");
  printTable(["what", "before KB", "after KB", "after / before", "target", ""], rows);
}

const watch = new CpuWatch();
const dataDir = mkdtempSync(join(tmpdir(), "vektor-bench-web-"));
const server = await startServer(dataDir);
let wasmOnFirstVisit = 0;
try {
  await printWire(server.url);
  const { visit, times } = await measureWeb(server.url, await server.admin(), Object.keys(map.families));
  wasmOnFirstVisit = visit.wasmFiles;
  console.log("\n## First visit in Chromium (fresh profile, network bytes incl. the service worker's precache)\n");
  printTable(
    ["what", "requests", "KB", "tool WASM files", "target", ""],
    [["first visit", visit.requests, kb(visit.bytes), visit.wasmFiles, "no tool WASM", visit.wasmFiles === 0 ? "PASS" : "MISS"]],
  );
  const s = (ms: number) => (ms / 1000).toFixed(2);
  console.log("\n## Time to the first result, Run to Done (s): this device vs the server\n");
  printTable(
    ["family", "tool", "input KB", "device cold", "device warm", "server cold", "server warm", "device warm / server warm"],
    times.map((t) => [t.row.family, t.row.slug, kb(t.inputBytes), s(t.deviceColdMs), s(t.deviceWarmMs), s(t.serverColdMs), s(t.serverWarmMs), (t.deviceWarmMs / t.serverWarmMs).toFixed(2)]),
  );
  console.log(`\nserver: upload + POST /api/tools/{slug} + download of every output, official client, 127.0.0.1\n${watch.note([server.pid])}`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
if (process.env.BENCH_STRICT === "1" && (gzip >= SHELL_TARGET_KB * 1024 || wasmPrecached > 0 || wasmOnFirstVisit > 0 || wireMissed)) process.exit(1);
