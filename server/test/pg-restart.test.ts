/**
 * PostgreSQL restarted under load: a 20-file batch and ten 3-step workflow runs in flight while
 * the database is restarted with `pg_ctl -m immediate` (a crash, as the OOM killer would) and then
 * `-m fast` (an operator's restart). Every item and run succeeds, each is charged exactly once,
 * and health is 200 again. The test starts a small cluster of its own, so restarting it disturbs
 * no other test; PostgreSQL only (the suite's second pass), skipped on PGlite.
 */
import { isTerminalRun } from "@vektor/shared/schemas/vocab";
import type { RunDetail } from "@vektor/shared/schemas/workflow";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startTestServer, waitFor, type TestServer } from "./harness";
import { makePdf } from "./fixtures";

const FILES = 20;
const RUNS = 10;
const GRAPH = JSON.stringify({
  nodes: ["source.upload", "op.pdf.rotate", "op.pdf.compress"].map((type, i) => ({ id: `n${i}`, type, data: { type } })),
  edges: [0, 1].map((i) => ({ source: `n${i}`, target: `n${i + 1}` })),
});

function postgresBin(): string | null {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "pg_ctl"))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], "bin") : null;
}

const bin = postgresBin();
const skipReason = !process.env.TEST_DATABASE_URL
  ? "PostgreSQL only: runs in the suite's PostgreSQL pass (TEST_DATABASE_URL set); PGlite has no server to restart"
  : !bin
    ? "no PostgreSQL server binaries under /usr/lib/postgresql"
    : null;
if (skipReason) console.warn(`[pg-restart] skipped: ${skipReason}`);

/** A throwaway cluster on a loopback port (as scripts/test.ts makes the shared one), owned by the postgres user when run as root. */
function cluster() {
  const dir = mkdtempSync(join(tmpdir(), "vektor-pg-restart-"));
  const data = join(dir, "data");
  const asPg = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  if (asPg.length) spawnSync("chown", ["-R", "postgres:postgres", dir]);
  const run = (cmd: string, args: string[]) => {
    const res = spawnSync(asPg[0] ?? cmd, asPg.length ? [...asPg.slice(1), cmd, ...args] : args, { encoding: "utf8" });
    if (res.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${res.stderr || res.stdout}`);
  };
  let port = 0;
  const pgCtl = (...args: string[]) => run(join(bin!, "pg_ctl"), ["-D", data, "-l", join(dir, "log"), ...args]);
  return {
    async start() {
      port = await freePort();
      run(join(bin!, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
      pgCtl("-o", `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=100`, "-w", "start");
      return `postgres://postgres@127.0.0.1:${port}/postgres`;
    },
    restart: (mode: "immediate" | "fast") => pgCtl("-m", mode, "-w", "restart"),
    stop() {
      spawnSync(asPg[0] ?? "true", asPg.length ? [...asPg.slice(1), join(bin!, "pg_ctl"), "-D", data, "-m", "immediate", "stop"] : []);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const pg = skipReason ? null : cluster();
let srv: TestServer;
beforeAll(async () => {
  if (!pg) return;
  const url = await pg.start();
  // Short leases and polls: work a dropped connection interrupted is taken again within seconds.
  srv = await startTestServer({ DATABASE_URL: url, TOOL_WORKERS: "2", JOB_LEASE_MS: "3000", JOB_POLL_MS: "100" });
}, 120_000);
afterAll(async () => {
  await srv?.close().catch(() => {});
  pg?.stop();
});

test.skipIf(skipReason !== null)("a batch and workflow runs in flight while PostgreSQL restarts (immediate, then fast): all succeed, each charged once, health back to 200", async () => {
  const c = await srv.user();
  const w = await c.workflows.create({ name: "restart", graphJson: GRAPH });
  const upload = async (i: number) => (await c.files.upload(new Blob([await makePdf(2, `doc ${i}`)]), { filename: `d${i}.pdf`, mime: "application/pdf" })).fileId;
  const batchFiles = await Promise.all(Array.from({ length: FILES }, (_, i) => upload(i)));
  const runFiles = await Promise.all(Array.from({ length: RUNS }, (_, i) => upload(100 + i)));
  const before = (await c.account()).credits;
  const t0 = Date.now();
  const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

  const batch = await c.t.call<{ batchId: string; credits: number }>("POST", "/api/batch", { type: "pdf.rotate", fileIds: batchFiles, params: { degrees: 90 } });
  const runIds: string[] = [];
  for (const f of runFiles) runIds.push((await c.workflows.run(w.id, [f])).runId);

  await Bun.sleep(300);
  pg!.restart("immediate");
  await Bun.sleep(1000);
  pg!.restart("fast");

  // Calls made while the database was away may fail; the service comes back without a restart of its own.
  await waitFor("health to be 200 again", () => fetch(`${srv.url}/api/health`).then((r) => r.status), (s) => s === 200, 60_000, 200);
  console.log(`[pg-restart] restarted twice; health 200 again at ${elapsed()}`);
  type Item = { status: string; errorCode: string | null; outFileId: string | null };
  type Batch = { batch: { status: string; done: number; failed: number }; files: Item[] };
  const finished = await waitFor(
    "the batch and every run to end",
    async () => {
      // A failed call is kept as its message, so a timeout says what kept failing.
      // A call that hangs is given up on after 15 s and asked again (and reported if it keeps hanging).
      const failed = (e: unknown) => ({ failed: String(e) });
      const within = <T>(p: Promise<T>) => Promise.race([p, Bun.sleep(15_000).then(() => Promise.reject(new Error("no answer within 15 s")))]).catch(failed);
      const b = await within(c.t.call<Batch>("GET", `/api/batch/${batch.batchId}`));
      const runs = await Promise.all(runIds.map((id) => within(c.workflows.runDetail(id))));
      const pending = runs.filter((r) => !("run" in r) || !isTerminalRun(r.run.status));
      return { b, runs, pending };
    },
    ({ b, pending }) => "batch" in b && ["completed", "failed", "cancelled"].includes(b.batch.status) && pending.length === 0,
    120_000,
    250,
  );
  console.log(`[pg-restart] batch and runs ended at ${elapsed()}`);
  const b = finished.b as Batch;
  expect(b.batch).toMatchObject({ status: "completed", done: FILES, failed: 0 });
  expect(b.files.filter((f) => f.status !== "succeeded" || f.outFileId === null)).toEqual([]);
  const runs = finished.runs as RunDetail[];
  const failed = runs.filter((d) => d.run.status !== "succeeded").map((d) => ({ run: d.run, steps: d.steps.map((s) => [s.nodeId, s.status, s.attempts, s.error]) }));
  expect(failed).toEqual([]);

  // Charged exactly once each: one ledger entry per batch and per run, and the balance agrees.
  const ledger = await c.credits(500);
  const charges = [batch.batchId, ...runIds].map((ref) => ledger.filter((e) => e.ref === ref).map((e) => e.amount));
  for (const entries of charges) expect(entries.length).toBe(1);
  expect(charges[0]).toEqual([-batch.credits]);
  const spent = charges.reduce((sum, entries) => sum - entries[0], 0);
  expect((await c.account()).credits).toBe(before - spent);
  expect((await fetch(`${srv.url}/api/health`)).status).toBe(200);
}, 400_000);
