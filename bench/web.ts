/**
 * The web app's weight, from its build (web/dist, built first when stale): the app shell the
 * service worker precaches (HTML + JS + CSS, gzip; target < 300 KB) and, per tool family, what
 * its first use downloads (worker chunks and WASM, cached from then on; never on the first
 * visit). Bytes fetched by a real first visit in Chromium are printed by e2e/app.e2e.ts; time to
 * the first result per family (cold and warm, beside the server) is still to come (issue 13).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { printTable } from "./lib/table";

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
if (process.env.BENCH_STRICT === "1" && (gzip >= SHELL_TARGET_KB * 1024 || wasmPrecached > 0)) process.exit(1);
