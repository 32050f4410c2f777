/**
 * Batch throughput, batch ZIP streaming and the API's memory, on the production layout: a
 * throwaway PostgreSQL, one ROLE=api process (TOOL_WORKERS=0) and ROLE=worker processes
 * (TOOL_WORKERS=1 each) sharing one DATA_DIR, driven through the official client.
 *
 *   throughput  1,000 small one-page PDFs uploaded once (in parallel) and reused; a pdf.rotate
 *               batch over all of them timed from POST /api/batch to the terminal event on its SSE
 *               stream, with 1 and with 2 worker processes (a warm-up batch first on each set of
 *               workers). Per-item overhead = wall x workers / items - the tool's own median time
 *               on the same input in a warm WorkerPool. Targets: overhead < 10 ms, 2 workers
 *               >= 1.8x the items/s of 1 (near-linear)
 *   where time  from the job rows (claim -> finish per item, gaps between items, the first
 *   goes        item's wait for a poll), pg_stat_statements (statements per item, the most
 *               expensive ones), CPU per item of the API, the workers and PostgreSQL, and the
 *               claim query's plan with a full queue (EXPLAIN ANALYZE, rolled back)
 *   ZIP         ~2 GiB of outputs: pdf.rotate over ~100 MB image PDFs (scans: random, so
 *               incompressible, image streams; output as large as input). GET /api/batch/{id}/zip
 *               streamed to a file: uncached (the build; the cache is reset in the database
 *               between runs) and cached, beside `zip -0 -q -j` of the same output files on the
 *               same disk. Target >= 80% of zip's MB/s. Warm page cache, untimed `sync` before
 *               every run, no fsync in any timed run (the server does not fsync either)
 *   memory      the API process's peak RSS over every step (kernel VmHWM). Target < 300 MB
 *   env         BENCH_ITEMS (default 1000), BENCH_ZIP_MB (default 2048; 0 skips the ZIP part),
 *               BENCH_RUNS (timed batches per worker count and ZIP runs; default 3), BENCH_DIR
 *               (where inputs, DATA_DIR and downloads live; default the OS temp dir),
 *               BENCH_STRICT=1 (exit 1 on a MISS). JOB_POLL_MS etc. pass through to the server.
 */
import type { VektorClient } from "@vektor/shared/client";
import { isTerminalBatch } from "@vektor/shared/schemas/vocab";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCluster, treeCpuSeconds, cpuSeconds, type Cluster } from "./lib/cluster";
import { claimStatement, createLogger, drizzle, QUEUED, schema, WorkerPool, type Db } from "./lib/deps";
import { smallPdf, writeImagePdf } from "./lib/inputs";
import { ensureCommands, timeCommand } from "./lib/native";
import { Teardown } from "./lib/teardown";
import { startPostgres, type BenchPostgres } from "./lib/postgres";
import { RssMeter } from "./lib/server";
import { CpuWatch, fixed, mbps, median, MiB, printTable } from "./lib/table";

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const ZIP_MB = Number(process.env.BENCH_ZIP_MB ?? 2048);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
if (!Number.isInteger(ITEMS) || ITEMS < 2) throw new Error("BENCH_ITEMS must be an integer >= 2");
if (!Number.isInteger(ZIP_MB) || ZIP_MB < 0) throw new Error("BENCH_ZIP_MB must be a non-negative integer");
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("BENCH_RUNS must be an integer >= 1");
const WORKER_COUNTS = [1, 2];
const TOOL = "pdf.rotate";
const PARAMS = { degrees: 90 };
const TARGET = { overheadMs: 10, scaling: 1.8, zipShare: 0.8, rss: 300 * MiB };
const ZIP_FILE_MB = 100;

const teardown = new Teardown("batch", process.env.BENCH_DIR ?? tmpdir());
const work = teardown.dir;
const dataDir = join(work, "data");
let pg: BenchPostgres | null = null;
let cluster: Cluster | null = null;
let rssApi: RssMeter | null = null;
/** Aborts open event streams on the way out: the API's graceful stop waits for open requests. */
const streams = new AbortController();
teardown.add(() => pg?.stop());
teardown.add(() => cluster?.stop());
teardown.add(() => {
  streams.abort();
  rssApi?.stop();
});

const log = (msg: string) => console.log(`[batch] ${msg}`);
const sec = (ms: number) => (ms / 1000).toFixed(1);

// ---------------------------------------------------------------- helpers

/** Uploads `count` items with `make(i)` bytes, `concurrency` at a time; returns file ids in order. */
async function uploadMany(client: VektorClient, count: number, concurrency: number, make: (i: number) => Promise<Blob>, name: (i: number) => string, mime: string): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      ids[i] = (await client.files.upload(await make(i), { filename: name(i), mime })).fileId;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return ids;
}

interface Progress {
  total: number;
  done: number;
  failed: number;
  status: string;
}

/** Reads the batch's SSE stream until an event with a terminal status (what the web app does). */
async function waitTerminal(client: VektorClient, batchId: string, timeoutMs = 30 * 60_000): Promise<Progress> {
  const res = await client.t.fetch(`/api/batch/${batchId}/events`, { headers: { accept: "text/event-stream" }, signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), streams.signal]) });
  if (!res.ok || !res.body) throw new Error(`events answered ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      for (let i; (i = buf.indexOf("\n\n")) >= 0; ) {
        const event = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const data = event.split("\n").find((l) => l.startsWith("data: "));
        if (!data) continue;
        const p = JSON.parse(data.slice(6)) as Progress;
        if (isTerminalBatch(p.status)) return p;
      }
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  throw new Error("the event stream ended before a terminal status");
}

interface Cpu {
  api: number;
  workers: number;
  pg: number;
}
function cpuNow(c: Cluster, p: BenchPostgres): Cpu {
  return { api: cpuSeconds(c.api.pid), workers: c.workers.reduce((s, w) => s + cpuSeconds(w.pid), 0), pg: treeCpuSeconds(p.pid) };
}

interface Statement {
  calls: number;
  ms: number;
  query: string;
}
async function resetStatements(): Promise<void> {
  if (pg!.statements) await pg!.sql`select pg_stat_statements_reset()`;
}
async function readStatements(): Promise<Statement[]> {
  if (!pg!.statements) return [];
  const rows = await pg!.sql<{ calls: string; total: number; query: string }[]>`
    select calls, total_exec_time as total, query from pg_stat_statements
    where query not ilike '%pg_stat_statements%' order by total_exec_time desc`;
  return rows.map((r) => ({ calls: Number(r.calls), ms: Number(r.total), query: r.query.replace(/\s+/g, " ").trim() }));
}

interface BatchRun {
  workers: number;
  /** POST /api/batch -> the terminal SSE event, as a client sees it. */
  wallMs: number;
  /** The POST itself (checks, charge, 1,000 job rows in one transaction). */
  createMs: number;
  /** batch.created_at -> last item's finished_at, from the database (no SSE poll delay). */
  serverMs: number;
  /** batch.created_at -> first claim: how long the queue waited for a worker to look. */
  firstClaimMs: number;
  /** Median and mean claim -> finish of one item (claim query, inputs read, tool run, output stored, rows written). */
  itemMs: number;
  itemMeanMs: number;
  /** Mean gap between one item's finish and the next claim on the same lane (1 worker only). */
  gapMs: number | null;
  stmtsPerItem: number;
  dbMsPerItem: number;
  claimMeanMs: number;
  cpu: Cpu;
  apiRss: number;
  top: Statement[];
}

async function timedBatch(client: VektorClient, c: Cluster, fileIds: string[], workers: number): Promise<BatchRun> {
  const sql = pg!.sql;
  await resetStatements();
  const cpu0 = cpuNow(c, pg!);
  const t0 = performance.now();
  const { batchId } = await client.t.call<{ batchId: string }>("POST", "/api/batch", { type: TOOL, fileIds, params: PARAMS });
  const createMs = performance.now() - t0;
  const end = await waitTerminal(client, batchId);
  const wallMs = performance.now() - t0;
  const cpu1 = cpuNow(c, pg!);
  if (end.status !== "completed" || end.done !== fileIds.length) throw new Error(`batch ${batchId} ended ${end.status} with ${end.done}/${fileIds.length} done, ${end.failed} failed`);
  const statements = await readStatements();
  const [b] = await sql<{ created: number; first: number; last: number }[]>`
    select extract(epoch from b.created_at) * 1000 as created, extract(epoch from min(j.started_at)) * 1000 as first, extract(epoch from max(j.finished_at)) * 1000 as last
    from batch b join job j on j.batch_id = b.id where b.id = ${batchId} group by b.created_at`;
  const jobs = await sql<{ s: number; f: number }[]>`
    select extract(epoch from started_at) * 1000 as s, extract(epoch from finished_at) * 1000 as f from job where batch_id = ${batchId} order by started_at`;
  const items = jobs.map((j) => Number(j.f) - Number(j.s));
  const gaps = workers === 1 ? jobs.slice(1).map((j, i) => Number(j.s) - Number(jobs[i].f)) : [];
  const calls = statements.reduce((s, x) => s + x.calls, 0);
  const dbMs = statements.reduce((s, x) => s + x.ms, 0);
  // The claim: an UPDATE of the job row taking a lease, alone or as the "claimed" CTE (queue/claim.ts).
  const claim = statements.find((s) => /^(with "claimed" as \()?update "?job"? set "?status"? = .*"?attempts"? = "?job"?\."?attempts"?/i.test(s.query));
  return {
    workers,
    wallMs,
    createMs,
    serverMs: Number(b.last) - Number(b.created),
    firstClaimMs: Number(b.first) - Number(b.created),
    itemMs: median(items),
    itemMeanMs: items.reduce((a, b) => a + b, 0) / items.length,
    gapMs: gaps.length ? gaps.reduce((a, b) => a + b, 0) / gaps.length : null,
    stmtsPerItem: calls / fileIds.length,
    dbMsPerItem: dbMs / fileIds.length,
    claimMeanMs: claim ? claim.ms / claim.calls : NaN,
    cpu: { api: cpu1.api - cpu0.api, workers: cpu1.workers - cpu0.workers, pg: cpu1.pg - cpu0.pg },
    apiRss: 0,
    top: statements.slice(0, 6),
  };
}

/** The tool's own time on `bytes` in a warm pool of one worker (first run discarded), as the server's workers run it. */
async function toolTimeMs(bytes: Uint8Array, name: string, runs: number): Promise<number> {
  const pool = new WorkerPool(1, createLogger("silent"));
  try {
    const xs: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const input = { name, bytes: bytes.slice(), mime: "application/pdf" };
      const t0 = performance.now();
      const out = await pool.run({ id: `t${i}`, slug: TOOL, inputs: [input], params: PARAMS, timeoutMs: 120_000 });
      if (!out.ok) throw new Error(`${TOOL} in the pool: ${out.error.message}`);
      if (i > 0) xs.push(performance.now() - t0);
    }
    return median(xs);
  } finally {
    await pool.close();
  }
}

/** The runner's claim of a queued job, the very statement server/src/queue/runner.ts runs, as SQL and params. */
function claimQuery(perUser: number): { sql: string; params: unknown[] } {
  const db = drizzle(pg!.sql, { schema }) as unknown as Db;
  return claimStatement(db, QUEUED, { lane: "tool", perUser, global: 0, leaseMs: 30_000 }).toSQL();
}

/** EXPLAIN ANALYZE of a claim query in a rolled-back transaction (nothing is claimed): median execution time and the plan. */
async function explainClaim(query: { sql: string; params: unknown[] }): Promise<{ ms: number; plan: string[] }> {
  const times: number[] = [];
  let plan: string[] = [];
  for (let i = 0; i < 5; i++) {
    await pg!.sql
      .begin(async (tx) => {
        const rows = await tx.unsafe(`explain (analyze, buffers off, timing on) ${query.sql}`, query.params as never[]);
        plan = rows.map((r) => String(r["QUERY PLAN"]));
        throw new Error("rollback");
      })
      .catch((err) => {
        if ((err as Error).message !== "rollback") throw err;
      });
    const exec = plan.find((l) => l.startsWith("Execution Time"));
    times.push(exec ? Number(/([\d.]+) ms/.exec(exec)![1]) : NaN);
  }
  return { ms: median(times), plan };
}

// ---------------------------------------------------------------- the steps

async function throughput(client: VektorClient, c: Cluster, ids: string[], rssApi: RssMeter) {
  const runs: BatchRun[][] = [];
  for (const n of WORKER_COUNTS) {
    await c.addWorkers(n, 1);
    const warm = ids.slice(0, Math.min(ids.length, 10 * n));
    log(`${n} worker process(es): warm-up batch of ${warm.length}`);
    const w = await client.t.call<{ batchId: string }>("POST", "/api/batch", { type: TOOL, fileIds: warm, params: PARAMS });
    await waitTerminal(client, w.batchId);
    const mine: BatchRun[] = [];
    for (let r = 0; r < RUNS; r++) {
      rssApi.mark();
      const run = await timedBatch(client, c, ids, n);
      run.apiRss = rssApi.mark();
      mine.push(run);
      log(`${n} worker(s), run ${r + 1}/${RUNS}: ${ids.length} items in ${sec(run.wallMs)} s (${fixed(ids.length / (run.wallMs / 1000), 1)} items/s; server-side ${sec(run.serverMs)} s, item mean ${fixed(run.itemMeanMs, 1)} ms, claim query mean ${fixed(run.claimMeanMs, 2)} ms, ${fixed(run.stmtsPerItem, 1)} statements/item)`);
    }
    runs.push(mine);
    await c.stopWorkers();
  }
  return runs;
}

function medianRun(rs: BatchRun[]): BatchRun {
  return [...rs].sort((a, b) => a.wallMs - b.wallMs)[rs.length >> 1];
}

async function zipStep(client: VektorClient, c: Cluster, rssApi: RssMeter) {
  const files = Math.max(2, Math.round(ZIP_MB / ZIP_FILE_MB));
  const fileMb = ZIP_MB / files;
  const pages = 10;
  const dir = join(work, "zip-in");
  mkdirSync(dir);
  log(`ZIP: writing ${files} image PDFs of ${fixed(fileMb)} MB (${pages} scanned pages of random pixels each)`);
  const paths = Array.from({ length: files }, (_, i) => join(dir, `scan-${String(i + 1).padStart(3, "0")}.pdf`));
  for (const p of paths) writeImagePdf(p, pages, (fileMb * MiB) / pages);
  const inBytes = paths.reduce((s, p) => s + statSync(p).size, 0);

  const toolMs = await toolTimeMs(new Uint8Array(await Bun.file(paths[0]).arrayBuffer()), "scan.pdf", 3);
  log(`ZIP: uploading ${fixed(inBytes / MiB)} MiB (multipart), 2 at a time`);
  const tUp = performance.now();
  const ids = await uploadMany(client, files, 2, async (i) => Bun.file(paths[i]), (i) => `scan-${String(i + 1).padStart(3, "0")}.pdf`, "application/pdf");
  const uploadMs = performance.now() - tUp;
  rmSync(dir, { recursive: true, force: true }); // the server has them now

  await c.addWorkers(2, 1);
  const t0 = performance.now();
  const { batchId } = await client.t.call<{ batchId: string }>("POST", "/api/batch", { type: TOOL, fileIds: ids, params: PARAMS });
  const end = await waitTerminal(client, batchId);
  const batchMs = performance.now() - t0;
  await c.stopWorkers();
  if (end.status !== "completed" || end.done !== files) throw new Error(`ZIP batch ended ${end.status}, ${end.done}/${files} done`);
  const outputs = await pg!.sql<{ key: string; size: string }[]>`
    select f.storage_key as key, f.size from job j join file f on f.id = j.output_file_ids->>0 where j.batch_id = ${batchId} order by j.position`;
  const outPaths = outputs.map((o) => join(dataDir, "objects", o.key));
  const outBytes = outputs.reduce((s, o) => s + Number(o.size), 0);
  log(`ZIP: batch of ${files} done in ${sec(batchMs)} s; outputs ${fixed(outBytes / MiB)} MiB`);

  const dest = join(work, "download.zip");
  const settle = () => {
    rmSync(dest, { force: true });
    Bun.spawnSync(["sync"]);
  };
  const zipMs: number[] = [];
  let zipSize = 0;
  for (let r = 0; r < RUNS; r++) {
    settle();
    zipMs.push(await timeCommand(["zip", "-0", "-q", "-j", dest, ...outPaths], { cwd: work }));
    zipSize = statSync(dest).size;
  }

  const get = async (uncached: boolean) => {
    if (uncached) await pg!.sql`update batch set zip_state = null, zip_key = null, zip_size = null, zip_sha256 = null, zip_started_at = null where id = ${batchId}`;
    settle();
    await rssApi.quiesce();
    rssApi.mark();
    const cpu0 = cpuSeconds(c.api.pid);
    const t = performance.now();
    const res = await client.t.fetch(`/api/batch/${batchId}/zip`);
    const ttfb = performance.now() - t;
    if (!res.ok) throw new Error(`zip answered ${res.status}: ${await res.text()}`);
    const expected = Number(res.headers.get("content-length"));
    await Bun.write(dest, res);
    const ms = performance.now() - t;
    const size = statSync(dest).size;
    if (size !== expected) throw new Error(`zip download wrote ${size} bytes, content-length said ${expected}`);
    return { ms, ttfb, size, rss: rssApi.mark(), cpu: cpuSeconds(c.api.pid) - cpu0 };
  };
  const uncached = [];
  for (let r = 0; r < RUNS; r++) uncached.push(await get(true));
  const cached = [];
  for (let r = 0; r < RUNS; r++) cached.push(await get(false));
  // one integrity check of the served archive (CRCs of every entry), untimed
  const test = Bun.spawnSync(["unzip", "-tqq", dest]);
  const valid = test.exitCode === 0;
  rmSync(dest, { force: true });
  return { files, fileMb, inBytes, outBytes, uploadMs, batchMs, toolMs, zipMs, zipSize, uncached, cached, valid };
}

// ---------------------------------------------------------------- main

const cpuWatch = new CpuWatch();
try {
  ensureCommands({ zip: "zip", unzip: "unzip" });
  if (process.env.BENCH_SERVER_ENTRY) log(`server entry ${process.env.BENCH_SERVER_ENTRY}${process.env.BENCH_AB ? ` (BENCH_AB=${process.env.BENCH_AB})` : ""}`);
  log(`PostgreSQL, one ROLE=api process; items ${ITEMS}, ZIP ${ZIP_MB} MB, ${RUNS} run(s) per step; under ${work}`);
  pg = await startPostgres();
  cluster = await startCluster({ dataDir, databaseUrl: pg.url });
  rssApi = new RssMeter(cluster.api.pid);
  const client = await cluster.admin();
  const perUser = 1000;
  await client.admin.setConfig("batch_configs", { "batch.max_files_free": 10_000, "batch.max_size_mb_free": 1_000_000 });
  await client.admin.setConfig("platform_configs", { "ratelimit.per_minute": 1_000_000, "processing.max_concurrent_per_user": perUser, "upload.max_size_mb": 1_000_000 });
  await client.admin.grantCredits({ email: cluster.adminEmail, amount: 1_000_000, reason: "benchmark" });

  log(`uploading ${ITEMS} small PDFs, 16 at a time`);
  const samples = await Promise.all(Array.from({ length: 8 }, (_, i) => smallPdf(i)));
  const tUp = performance.now();
  const ids = await uploadMany(client, ITEMS, 16, async (i) => new Blob([i < samples.length ? samples[i] : await smallPdf(i)]), (i) => `item-${String(i + 1).padStart(4, "0")}.pdf`, "application/pdf");
  const uploadMs = performance.now() - tUp;
  log(`uploaded in ${sec(uploadMs)} s (${fixed(ITEMS / (uploadMs / 1000))} files/s, 3 requests each)`);

  const toolMs = await toolTimeMs(samples[0], "item.pdf", 30);
  log(`${TOOL} on one small PDF in a warm pool: ${fixed(toolMs, 1)} ms (median of 30)`);

  const runs = await throughput(client, cluster, ids, rssApi);

  // The claim query's plan with a full queue and the history these runs left (workers stopped, batch cancelled after)
  const { batchId: queuedId } = await client.t.call<{ batchId: string }>("POST", "/api/batch", { type: TOOL, fileIds: ids, params: PARAMS });
  const claimPlan = await explainClaim(claimQuery(perUser));
  await client.t.call("POST", `/api/batch/${queuedId}/cancel`);
  const [{ jobs }] = await pg.sql<{ jobs: string }[]>`select count(*) as jobs from job`;

  const zip = ZIP_MB > 0 ? await zipStep(client, cluster, rssApi) : null;

  // ---------------------------------------------------------------- report
  let allPass = true;
  const base = medianRun(runs[0]);
  const rate1 = ITEMS / (base.wallMs / 1000);
  const rows = runs.map((rs, k) => {
    const n = WORKER_COUNTS[k];
    const m = medianRun(rs);
    const rate = ITEMS / (m.wallMs / 1000);
    const perItem = (m.wallMs * n) / ITEMS;
    const overhead = perItem - toolMs;
    const scaling = rate / rate1;
    const okOverhead = overhead < TARGET.overheadMs;
    const okScaling = n === 1 || scaling >= TARGET.scaling;
    allPass &&= okOverhead && okScaling;
    const verdict = okOverhead && okScaling ? "PASS" : `MISS (${[!okOverhead && "overhead", !okScaling && "scaling"].filter(Boolean).join(", ")})`;
    return [n, ITEMS, sec(m.wallMs), `${rs.map((r) => sec(r.wallMs)).join(" / ")}`, fixed(rate, 1), fixed(perItem, 1), fixed(toolMs, 1), fixed(overhead, 1), n === 1 ? "1.00x" : `${scaling.toFixed(2)}x`, verdict];
  });
  console.log(`\nbatch: ${ITEMS} one-page PDFs, ${TOOL}, ROLE=api + N ROLE=worker processes (TOOL_WORKERS=1) on PostgreSQL; median of ${RUNS} (wall: POST -> terminal SSE event)\n`);
  printTable(
    ["workers", "items", "wall s", "runs s", "items/s", "wall x workers / item ms", "tool ms (warm pool)", "overhead / item ms", "scaling", `result (overhead < ${TARGET.overheadMs} ms, scaling >= ${TARGET.scaling}x)`],
    rows,
  );

  console.log("\nwhere the time goes (median run of each):\n");
  printTable(
    ["workers", "POST /api/batch ms", "created -> 1st claim ms", "server wall s", "claim -> finish / item mean ms", "median ms", "gap between items mean ms", "SQL statements / item", "DB exec ms / item", "claim query mean ms", "CPU ms / item api", "workers", "postgres", "API peak RSS MB"],
    runs.map((rs, k) => {
      const m = medianRun(rs);
      const per = (s: number) => fixed((s * 1000) / ITEMS, 1);
      return [WORKER_COUNTS[k], fixed(m.createMs), fixed(m.firstClaimMs), sec(m.serverMs), fixed(m.itemMeanMs, 1), fixed(m.itemMs, 1), m.gapMs === null ? "-" : fixed(m.gapMs, 1), fixed(m.stmtsPerItem, 1), fixed(m.dbMsPerItem, 2), fixed(m.claimMeanMs, 2), per(m.cpu.api), per(m.cpu.workers), per(m.cpu.pg), fixed(m.apiRss / MiB)];
    }),
  );
  const top = medianRun(runs[runs.length - 1]).top;
  if (top.length) {
    console.log(`\nmost expensive statements (${WORKER_COUNTS[WORKER_COUNTS.length - 1]} workers, median run; per item = calls / ${ITEMS}):\n`);
    printTable(
      ["calls / item", "total ms", "mean ms", "statement"],
      top.map((s) => [fixed(s.calls / ITEMS, 2), fixed(s.ms), fixed(s.ms / s.calls, 3), s.query.slice(0, 110)]),
    );
  }
  console.log(`\nclaim query with ${ITEMS} queued items and ${jobs} job rows in the table (EXPLAIN ANALYZE, median of 5, rolled back):`);
  console.log(`  server/src/queue/runner.ts claim: ${fixed(claimPlan.ms, 2)} ms; plan:`);
  for (const line of claimPlan.plan.filter((l) => /Scan|Sort|Limit|Aggregate|SubPlan|Execution/.test(l)).slice(0, 12)) console.log(`      ${line.trim()}`);

  let peakRss = Math.max(...runs.flat().map((r) => r.apiRss));
  if (zip) {
    const zipRate = mbps(zip.zipSize, median(zip.zipMs));
    const row = (name: string, rs: { ms: number; ttfb: number; size: number; rss: number; cpu: number }[]) => {
      const ms = median(rs.map((r) => r.ms));
      const rate = mbps(rs[0].size, ms);
      const ok = rate >= TARGET.zipShare * zipRate;
      allPass &&= ok;
      return [name, fixed(rs[0].size / MiB), sec(ms), rs.map((r) => sec(r.ms)).join(" / "), fixed(median(rs.map((r) => r.ttfb))), fixed(rate), `${fixed((100 * rate) / zipRate)}%`, fixed(Math.max(...rs.map((r) => r.rss)) / MiB), fixed(median(rs.map((r) => r.cpu)), 1), ok ? "PASS" : "MISS"];
    };
    const rowsZip = [row("GET /zip, first (builds the ZIP)", zip.uncached), row("GET /zip, cached", zip.cached)];
    peakRss = Math.max(peakRss, ...zip.uncached.map((r) => r.rss), ...zip.cached.map((r) => r.rss));
    console.log(
      `\nZIP: ${zip.files} outputs of pdf.rotate over ${fixed(zip.fileMb)} MB image PDFs, ${fixed(zip.outBytes / MiB)} MiB in all (batch: ${sec(zip.batchMs)} s with 2 workers, tool ${fixed(zip.toolMs)} ms/file in a warm pool; upload ${fixed(mbps(zip.inBytes, zip.uploadMs))} MB/s); median of ${RUNS}; archive valid (unzip -t): ${zip.valid ? "yes" : "NO"}\n`,
    );
    printTable(
      ["step", "MB", "s", "runs s", "first byte ms", "MB/s", "% of zip -0", "API peak RSS MB", "API CPU s", `result (>= ${TARGET.zipShare * 100}% of zip -0)`],
      [["zip -0 -q -j (same files, same disk)", fixed(zip.zipSize / MiB), sec(median(zip.zipMs)), zip.zipMs.map(sec).join(" / "), "-", fixed(zipRate), "100%", "-", "-", "-"], ...rowsZip],
    );
  }
  const rssOk = peakRss < TARGET.rss;
  allPass &&= rssOk;
  console.log(`\nAPI process peak RSS over every step: ${fixed(peakRss / MiB)} MB -> ${rssOk ? "PASS" : "MISS"} (< ${TARGET.rss / MiB} MB)`);
  console.log(cpuWatch.note([cluster.api.pid, pg.pid]));
  if (!allPass && process.env.BENCH_STRICT === "1") process.exitCode = 1;
} finally {
  await teardown.run();
}
