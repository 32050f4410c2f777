#!/usr/bin/env node
// Builds web/dist when it is missing or older than anything it is built from (the web app, the
// tools and shared code it bundles, the lockfile). Used by `npm start` and `npm test`; plain
// Node so the bootstrap can call it, and Bun runs it as well. Exit code: the build's.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const web = dirname(dirname(fileURLToPath(import.meta.url)));
const root = dirname(web);
const SOURCES = ["web/src", "web/index.html", "web/vite.config.ts", "web/vite", "web/package.json", "wasm-tools/src", "wasm-tools/package.json", "shared/src", "bun.lock"];
const stamp = join(web, "dist", "sw.js");

/** Newest modification time under `path` (0 when it does not exist). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path)
    .filter((name) => name !== "node_modules")
    .reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

const built = existsSync(stamp) && existsSync(join(web, "dist", "index.html")) ? statSync(stamp).mtimeMs : 0;
const changed = Math.max(...SOURCES.map((s) => newest(join(root, s))));
if (built >= changed) {
  console.log("[web] web/dist is up to date");
  process.exit(0);
}
console.log(built ? "[web] sources changed since the last build: building web/dist" : "[web] building web/dist");
const bun = process.env.BUN_BIN ?? (process.versions.bun ? process.execPath : join(root, ".tools", "node_modules", ".bin", "bun"));
const started = Date.now();
const res = spawnSync(bun, ["run", "build", "--logLevel", "warn"], { cwd: web, stdio: "inherit" });
if (res.error) throw res.error;
if (res.status === 0) console.log(`[web] built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(res.status ?? 1);
