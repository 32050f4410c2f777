/**
 * `npm test`: every test. Type-checks every workspace (tsc, strict), installs what the tests
 * need from Debian when it is missing (checkers such as qpdf, a PostgreSQL server), runs the
 * unit and integration tests on the
 * embedded PGlite, then the HTTP integration and queue tests again against a throwaway PostgreSQL
 * cluster on a loopback port, and prints one closing line: "tests: N passed, N failed".
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const bun = process.execPath;
/** Debian packages the tests read outputs with (independent checkers). */
const DEBIAN_TOOLS: Record<string, string> = { qpdf: "qpdf", pdfinfo: "poppler-utils", ffprobe: "ffmpeg", ogrinfo: "gdal-bin" };

type Totals = { passed: number; failed: number };
const totals: Totals = { passed: 0, failed: 0 };

function have(cmd: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;
}

function aptInstall(packages: string[]): void {
  if (packages.length === 0) return;
  console.log(`[test] installing from Debian: ${packages.join(" ")}`);
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const run = (args: string[]) => spawnSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  run(["apt-get", "update", "-qq"]);
  const res = run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", ...packages]);
  if (res.status !== 0) console.warn(`[test] apt-get install failed for ${packages.join(" ")}; tests needing them will fail`);
}

function postgresBin(): string | null {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], "bin") : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Each failed test's name and error as lines, repeated at the end of the run. */
const failures: string[][] = [];
const MAX_FAILURES = 20;
const CONTEXT_LINES = 14;
/** bun test prints a failed test's error first, then its `(fail) name` line. */
const BUN_FAIL = /^\s*\(fail\)\s/;
/** bun test names each file on a line of its own before its tests. */
const BUN_FILE = /^\S+\.(test|e2e)\.tsx?:$/;
/** Vitest prints ` FAIL  file > name`, then the error; bun test an error outside any test (a file that does not load) as this heading, then the error. */
const ERROR_FIRST = /^\s*FAIL\s|^# Unhandled error/;

/** Reads a child's output line by line and keeps each failed test's lines for the closing summary. */
function failureCollector(label: string): (text: string, stream: "out" | "err") => void {
  const partial = { out: "", err: "" };
  let file = "";
  const recent: string[] = [];
  let following: string[] | null = null;
  const onLine = (line: string) => {
    if (BUN_FILE.test(line)) file = line;
    recent.push(line);
    if (recent.length > CONTEXT_LINES) recent.shift();
    if (following && following.push(line) > CONTEXT_LINES) following = null;
    if (failures.length >= MAX_FAILURES) return;
    if (BUN_FAIL.test(line)) failures.push([`[${label}] ${file}`, ...recent]);
    else if (ERROR_FIRST.test(line)) failures.push((following = [`[${label}] ${file}`, line]));
  };
  return (text, stream) => {
    const lines = (partial[stream] + text.replace(/\x1b\[[0-9;]*m/g, "")).split("\n");
    partial[stream] = lines.pop() ?? "";
    for (const line of lines) onLine(line);
  };
}

/** Runs a test command, echoing its output; its exit code and the last of its output (colours stripped). */
async function echoed(label: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; tail: string }> {
  const child = spawn(bun, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let tail = "";
  const collect = failureCollector(label);
  const keep = (chunk: Buffer, stream: "out" | "err") => {
    (stream === "out" ? process.stdout : process.stderr).write(chunk);
    const text = chunk.toString();
    tail = (tail + text).slice(-4000);
    collect(text, stream);
  };
  child.stdout.on("data", (c) => keep(c, "out"));
  child.stderr.on("data", (c) => keep(c, "err"));
  const code: number = await new Promise((resolve) => child.on("close", (c) => resolve(c ?? 1)));
  return { code, tail: tail.replace(/\x1b\[[0-9;]*m/g, "") };
}

/**
 * Adds a suite's counts to the totals; a non-zero exit with no failed test counts as one failure,
 * repeated at the end with the last lines the suite printed (a crash, a file that did not load).
 */
function count(label: string, passed: number, failed: number, code: number, tail: string): void {
  totals.passed += passed;
  const unexplained = code !== 0 && failed === 0;
  totals.failed += failed + (unexplained ? 1 : 0);
  if (unexplained) failures.push([`[${label}] exited with code ${code} and no failed test; its last lines:`, ...tail.trimEnd().split("\n").slice(-CONTEXT_LINES)]);
  console.log(`[test] ${label}: ${passed} passed, ${failed} failed (exit ${code})`);
}

/** How long each part of the run took, in seconds, for the closing lines (the suite must stay well under 30 minutes). */
const took: [string, number][] = [];
const started = performance.now();

/** Runs `part`, noting how long it took under `label`. */
async function timed<T>(label: string, part: () => T | Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await part();
  } finally {
    took.push([label, (performance.now() - t0) / 1000]);
  }
}

/** Runs bun test, echoing its output, and adds its counts to the totals. */
async function bunTest(label: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  const named = args.length > 12 ? `${args.length} files (${args[0]} ... ${args.at(-1)})` : args.join(" ");
  console.log(`\n[test] ${label}: bun test ${named}`);
  const { code, tail } = await echoed(label, ["test", "--timeout", "60000", ...args], root, env);
  count(label, Number(/^\s*(\d+) pass$/m.exec(tail)?.[1] ?? 0), Number(/^\s*(\d+) fail$/m.exec(tail)?.[1] ?? 0), code, tail);
}

/**
 * The web app's unit tests (Vitest, web/package.json's `test`), on the files named or all;
 * counts from its `Tests  N failed | N passed (N)` line. On Bun: Vitest 5 wants Node 22, and
 * on Node 20 its failure report crashes (Map.groupBy).
 */
async function webTest(paths: string[]): Promise<void> {
  const args = paths.map((p) => p.replace(/^(\.\/)?web\/?/, "")).filter(Boolean);
  console.log(`\n[test] web unit (Vitest): vitest run ${args.join(" ")}`);
  const { code, tail } = await echoed("web unit (Vitest)", ["--bun", "run", "test", ...args], join(root, "web"));
  const line = /^\s*Tests\s+(.*)$/m.exec(tail)?.[1] ?? "";
  count("web unit (Vitest)", Number(/(\d+) passed/.exec(line)?.[1] ?? 0), Number(/(\d+) failed/.exec(line)?.[1] ?? 0), code, tail);
}

/**
 * tsc over every workspace: one program for everything that runs on Bun (tsconfig.check.json)
 * and one for the web app (its own DOM and Vite types). Each clean program counts as a passed
 * test; each with errors as a failed one, its errors printed.
 */
function typecheck(): void {
  const tsc = join(root, "server", "node_modules", "typescript", "bin", "tsc");
  for (const [label, project] of [["Bun workspaces", "tsconfig.check.json"], ["web", "web"]]) {
    console.log(`\n[test] typecheck (${label}): tsc -p ${project}`);
    const res = spawnSync(bun, [tsc, "-p", project, "--noEmit"], { cwd: root, stdio: "inherit" });
    if (res.status === 0) totals.passed += 1;
    else totals.failed += 1;
    console.log(`[test] typecheck (${label}): ${res.status === 0 ? "clean" : "errors above"}`);
  }
}

/** A throwaway PostgreSQL cluster on a loopback port, owned by the postgres user. */
async function startPostgres(): Promise<{ url: string; stop: () => void } | null> {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop: () => {} };
  if (!postgresBin()) aptInstall(["postgresql"]);
  const bin = postgresBin();
  if (!bin) return null;
  const dir = mkdtempSync(join(tmpdir(), "vektor-pg-"));
  const asPg = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  if (asPg.length) spawnSync("chown", ["-R", "postgres:postgres", dir]);
  const run = (cmd: string, args: string[]) => spawnSync(asPg[0] ?? cmd, asPg.length ? [...asPg.slice(1), cmd, ...args] : args, { stdio: "inherit" });
  const port = await freePort();
  if (run(join(bin, "initdb"), ["-D", join(dir, "data"), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]).status !== 0) return null;
  const opts = `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  if (run(join(bin, "pg_ctl"), ["-D", join(dir, "data"), "-l", join(dir, "log"), "-o", opts, "-w", "start"]).status !== 0) return null;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      run(join(bin, "pg_ctl"), ["-D", join(dir, "data"), "-m", "immediate", "stop"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Paths under e2e/ pick browser specs, paths under web/ the web app's Vitest; every other path goes to bun test as before. */
const isE2e = (path: string) => /^(\.\/)?e2e(\/|$)/.test(path);
const isWeb = (path: string) => /^(\.\/)?web(\/|$)/.test(path);

/**
 * Browser end-to-end specs (e2e/*.e2e.ts, a name bun test does not pick up by itself): Debian's
 * Chromium when it is missing, a web build when web/dist is missing or stale, then bun test on
 * the spec files (all of them, or the ones named).
 */
async function browserE2e(paths: string[]): Promise<void> {
  if (!existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium")) await timed("Chromium install", () => aptInstall(["chromium"]));
  const build = await timed("web build", () => spawnSync(bun, [join(root, "web", "scripts", "ensure-build.mjs")], { cwd: root, stdio: "inherit", env: { ...process.env, BUN_BIN: bun } }));
  if (build.status !== 0) {
    console.error("[test] the web app did not build: the browser specs count as failed");
    totals.failed += 1;
    return;
  }
  const named = paths.filter((p) => p.endsWith(".e2e.ts")).map((p) => `./${p.replace(/^\.\//, "")}`);
  const specs = named.length ? named : readdirSync(join(root, "e2e")).filter((f) => f.endsWith(".e2e.ts")).sort().map((f) => `./e2e/${f}`);
  await timed("Chromium", () => bunTest("browser end-to-end (Chromium)", specs));
}

await timed("Debian tools", () => aptInstall(Object.entries(DEBIAN_TOOLS).filter(([cmd]) => !have(cmd)).map(([, pkg]) => pkg)));

// The HTTP tests and the queue's own tests (its claims and locks are what differ most between the two engines).
const ON_POSTGRES = ["server/test", "server/src/queue", "server/src/tools", "server/src/modules/files/retention.test.ts", "server/src/modules/workflows/lists.test.ts", "server/src/modules/workflows/detail.test.ts", "server/src/modules/batch/detail.test.ts", "server/src/db/postgres-prepare.test.ts", "server/src/db/reusable.test.ts", "server/src/db/transaction-end.test.ts"];
// Files there whose subject owes nothing to the database engine (HTTP deadlines, the CLI as a
// user runs it, the worker pool, in-memory helpers): the PGlite run covers them (about 45 s).
const NOT_ON_POSTGRES = new Set(["server/test/slow-clients.test.ts", "server/test/cli.test.ts", "server/src/tools/pool.test.ts", "server/src/tools/early-run.test.ts", "server/src/tools/staged-outputs.test.ts", "server/src/queue/ends.test.ts", "server/src/queue/kinds.test.ts", "server/src/queue/registry.test.ts", "server/src/queue/claims-again.test.ts", "server/src/tools/job-files.test.ts"]);
function onPostgres(path: string): boolean {
  const clean = path.replace(/^\.\//, "");
  return ON_POSTGRES.some((dir) => clean.startsWith(dir)) && !NOT_ON_POSTGRES.has(clean);
}

/** The test files of `paths` (files, or folders searched) that run on PostgreSQL: NOT_ON_POSTGRES's left out. */
function postgresFiles(paths: string[]): string[] {
  const testFiles = (path: string) => {
    const clean = path.replace(/^\.\//, "").replace(/\/$/, "");
    if (clean.endsWith(".test.ts")) return [clean];
    return readdirSync(join(root, clean), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".test.ts")).map((f) => `${clean}/${f}`);
  };
  return paths.flatMap(testFiles).filter(onPostgres).sort().map((f) => `./${f}`);
}
const only = process.argv.slice(2).filter((p) => !isE2e(p) && !isWeb(p));
const e2eArgs = process.argv.slice(2).filter(isE2e);
const webArgs = process.argv.slice(2).filter(isWeb);
// Only browser specs or web tests named: no bun test run, no PostgreSQL.
const e2eOnly = (e2eArgs.length > 0 || webArgs.length > 0) && only.length === 0;
if (process.argv.length === 2) await timed("typecheck", typecheck);
if (process.argv.length === 2 || webArgs.length > 0) await timed("web unit", () => webTest(webArgs));
if (!e2eOnly) await timed("PGlite", () => bunTest("unit and integration (PGlite)", only.length ? only : ["shared", "server", "wasm-tools"]));

// Named paths with none of them in the PostgreSQL set: nothing to run there.
const pgNone = only.length > 0 && !only.some(onPostgres);
const pg = e2eOnly || pgNone ? null : await timed("PostgreSQL start", startPostgres);
if (pg) {
  try {
    const named = only.filter(onPostgres);
    await timed("PostgreSQL", () => bunTest("HTTP integration and queue (PostgreSQL)", postgresFiles(named.length ? named : ON_POSTGRES), { TEST_DATABASE_URL: pg.url }));
  } finally {
    pg.stop();
  }
} else if (!e2eOnly && !pgNone) {
  console.error("[test] could not start PostgreSQL: the Postgres run counts as failed");
  totals.failed += 1;
}

if (process.argv.length === 2 || e2eArgs.length > 0) await browserE2e(e2eArgs);
took.push(["in all", (performance.now() - started) / 1000]);

// Repeated last, so that the end of a long log (all a CI summary may keep) says which tests failed and why.
if (failures.length) console.log(`\n[test] failed tests and their errors (as printed above):\n\n${failures.map((lines) => lines.join("\n")).join("\n\n")}`);
console.log(`\n[test] time: ${took.map(([label, s]) => `${label} ${Math.round(s)} s`).join(", ")}`);
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
