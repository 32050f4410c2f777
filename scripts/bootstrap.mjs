#!/usr/bin/env node
// Entry point for `npm start`, `npm test` and `npm run bench` on a machine that has only
// Node.js and npm: it installs Bun from the npm registry into .tools/, installs the workspace
// dependencies with Bun, then hands over to a Bun script. Plain Node on purpose: Bun is not
// there yet when this runs.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BUN_VERSION = "1.4.5";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const toolsDir = join(root, ".tools");
const bun = join(toolsDir, "node_modules", ".bin", "bun");

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...opts });
  if (res.error) throw res.error;
  return res.status ?? 1;
}

function ensureBun() {
  if (existsSync(bun)) return;
  console.log(`[setup] installing Bun ${BUN_VERSION} from the npm registry into .tools/`);
  const code = run("npm", ["install", "--prefix", toolsDir, "--no-audit", "--no-fund", "--loglevel=error", `bun@${BUN_VERSION}`]);
  if (code !== 0 || !existsSync(bun)) {
    console.error("[setup] could not install Bun");
    process.exit(1);
  }
}

function ensureDependencies() {
  const marker = join(root, "node_modules", ".bun-installed");
  const lock = join(root, "bun.lock");
  const fresh = existsSync(marker) && (!existsSync(lock) || statSync(marker).mtimeMs >= statSync(lock).mtimeMs);
  if (fresh) return;
  console.log("[setup] installing dependencies with Bun");
  const args = ["install"];
  if (existsSync(lock) && process.env.CI) args.push("--frozen-lockfile");
  if (run(bun, args) !== 0) process.exit(1);
  run(bun, ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`]);
}

const scripts = {
  start: ["server/src/main.ts"],
  test: ["scripts/test.ts"],
  bench: ["bench/run.ts"],
};

const [command, ...rest] = process.argv.slice(2);
if (!scripts[command]) {
  console.error(`usage: node scripts/bootstrap.mjs ${Object.keys(scripts).join("|")}`);
  process.exit(2);
}
ensureBun();
ensureDependencies();
// The server serves web/dist: build it when it is missing or older than its sources.
if (command === "start" && run(process.execPath, [join(root, "web", "scripts", "ensure-build.mjs")], { env: { ...process.env, BUN_BIN: bun } }) !== 0) console.warn("[setup] the web app did not build; the server starts without it");
process.exit(run(bun, ["run", ...scripts[command], ...rest], { env: { ...process.env, BUN_BIN: bun } }));
