#!/usr/bin/env node
// The `vektor` command. Plain ESM so that Node 20+ runs it as it is; the CLI itself is the
// bundle client/scripts/build.mjs makes (run by `bun install` through this package's prepare).
// In a checkout, a bundle older than the sources is rebuilt first, so `npx vektor` runs the code
// as it is now.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bundle = new URL("../dist/vektor.js", import.meta.url);
const sources = [new URL("../src/", import.meta.url), new URL("../../shared/src/", import.meta.url)].map((u) => fileURLToPath(u));

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(".ts")) latest = Math.max(latest, statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs);
  }
  return latest;
}

const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
if (sources.every((d) => existsSync(d)) && Math.max(...sources.map(newest)) > built) {
  const res = spawnSync(process.execPath, [fileURLToPath(new URL("../scripts/build.mjs", import.meta.url))], { stdio: ["ignore", "ignore", "inherit"] });
  if (res.status !== 0 && !built) process.exit(2);
}
if (!existsSync(bundle)) {
  console.error("error: the vektor CLI is not built: run `node client/scripts/build.mjs` (bun install does it)");
  process.exit(2);
}
await import(bundle.href);
