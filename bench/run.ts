/**
 * `npm run bench [-- name...]`: runs every benchmark in bench/, one after another, each in its own
 * Bun process (so one benchmark's memory, servers and timers never colour the next one's numbers).
 *
 * A benchmark is `bench/<name>.ts` or `bench/<name>/index.ts`; `lib/` holds shared helpers and is
 * not one. Arguments filter by name (substring), e.g. `npm run bench -- upload`.
 * Exit code: non-zero when a benchmark crashed (or, with BENCH_STRICT=1, missed a target).
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, join, relative } from "node:path";

const here = import.meta.dir;
const NOT_BENCHMARKS = new Set(["run.ts", "lib", "node_modules"]);

function discover(): { name: string; file: string }[] {
  const found: { name: string; file: string }[] = [];
  for (const entry of readdirSync(here, { withFileTypes: true })) {
    if (NOT_BENCHMARKS.has(entry.name) || entry.name.startsWith(".")) continue;
    if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) found.push({ name: basename(entry.name, ".ts"), file: join(here, entry.name) });
    else if (entry.isDirectory() && existsSync(join(here, entry.name, "index.ts"))) found.push({ name: entry.name, file: join(here, entry.name, "index.ts") });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

const filters = process.argv.slice(2);
const all = discover();
const chosen = filters.length ? all.filter((b) => filters.some((f) => b.name.includes(f))) : all;
if (chosen.length === 0) {
  console.error(`no benchmark matches ${filters.join(", ")}; there are: ${all.map((b) => b.name).join(", ")}`);
  process.exit(2);
}

const results: { name: string; code: number; seconds: number }[] = [];
for (const b of chosen) {
  console.log(`\n=== bench: ${b.name} (${relative(join(here, ".."), b.file)}) ===`);
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, b.file], { stdio: ["inherit", "inherit", "inherit"] });
  const code = await proc.exited;
  results.push({ name: b.name, code, seconds: (performance.now() - t0) / 1000 });
}

console.log("\n=== bench summary ===");
for (const r of results) console.log(`${r.code === 0 ? "ok  " : "FAIL"} ${r.name} (${r.seconds.toFixed(0)} s${r.code === 0 ? "" : `, exit code ${r.code}`})`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
