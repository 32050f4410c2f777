#!/usr/bin/env node
// Builds client/dist with Bun's bundler: vektor.js (the CLI, one file for Node 20+, its
// dependencies inside), index.js (the client, plain ESM for browsers and Node) and node.js (the
// file helpers). Runs under Node or Bun; finds Bun as the package manager that runs it, as
// BUN_BIN, in the repository's .tools/, or on PATH.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = join(dirname(fileURLToPath(import.meta.url)), "..");

function findBun() {
  const candidates = [
    process.versions.bun ? process.execPath : null,
    /\bbun\b/.test(process.env.npm_config_user_agent ?? "") ? process.env.npm_execpath : null,
    process.env.BUN_BIN,
    join(here, "..", ".tools", "node_modules", ".bin", "bun"),
  ];
  return candidates.find((c) => c && existsSync(c)) ?? "bun";
}

const bun = findBun();
const builds = [
  ["src/cli/main.ts", "--target", "node", "--outfile", "dist/vektor.js"],
  ["src/node.ts", "--target", "node", "--outfile", "dist/node.js"],
  ["src/index.ts", "--target", "browser", "--outfile", "dist/index.js"],
];
for (const args of builds) {
  const res = spawnSync(bun, ["build", ...args], { cwd: here, stdio: "inherit" });
  if (res.error || res.status !== 0) {
    console.error(`[client] bun build ${args[0]} failed${res.error ? `: ${res.error.message}` : ""}`);
    process.exit(1);
  }
}
