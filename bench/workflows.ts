/**
 * The workflow engine (server/src/workflows/engine.ts): what a step transition costs and how many
 * the queue does, on PGlite (one ROLE=all process, TOOL_WORKERS=1) and on a throwaway PostgreSQL
 * (one ROLE=api process and 1, 2 or 4 ROLE=worker processes, TOOL_WORKERS=1 each), the latter with
 * JOB_POLL_MS at its default and at a lower value. Driven through the official client.
 *
 *   workflows  no-op chain: source.upload -> 8 x logic.merge -> sink.download (10 steps, no tool);
 *              5-step: source.upload -> op.pdf.rotate -> logic.merge -> logic.filter -> sink.download
 *              on a one-page PDF made with pdf-lib (one input file per run, 50 distinct ones in turn)
 *   overhead   light load (BENCH_WF_GROUP runs in flight at a time): over every consecutive step pair,
 *              successor.startedAt - predecessor.finishedAt (as the API shows them). NB kinds that
 *              only read the database run inside the transition that readies them (no queue hop);
 *              the others get a control job, and their startedAt is set when it is queued, in the
 *              transaction that finished their predecessor, so the queue wait is inside their own
 *              startedAt..finishedAt; predecessor.finishedAt -> successor.finishedAt is the whole
 *              cost of one transition, reported beside it.
 *              Targets (both): p50 < 10 ms, p95 < 50 ms
 *   throughput BENCH_WF_CHAIN_RUNS no-op chains at once: steps / s per worker process; target >= 200.
 *              BENCH_WF_RUNS 5-step runs at once: runs/s; PostgreSQL 2 workers vs 1: target >= 1.8x.
 *              The runs are posted with the queue stopped (PostgreSQL: the worker processes frozen, or with
 *              BENCH_WF_COLD=1 none up; PGlite:
 *              its server restarted as ROLE=api on the same data), so the API queues each run's
 *              first step; then the queue starts (workers started; PGlite restarted as ROLE=all) and
 *              the clock runs from then to the last run's finishedAt: the engine's rate, not the
 *              API's POSTs (their time is printed apart)
 *   where time from the job rows (read with the server's own drizzle schema; PGlite after its server
 *   goes       stopped): queue wait (step queued -> its control job claimed), handler (claimed -> step
 *              finished), the op step's two hops (control job, then its tool.run job), the run's
 *              first hop (API -> worker: ROLE=api runs no queue, so only a poll sees it), CPU per
 *              run of each process, SQL statements per run (pg_stat_statements), and a 5-step run's
 *              statements by count (each a round trip)
 *   triggers   hook -> run start: BENCH_WF_HOOKS signed hook requests, one at a time, on a 2-step
 *              run (source.upload -> sink.download): request sent -> answer (run created and charged)
 *              and request sent -> the run's first step finished (it really started), p50 / p95.
 *              Deliveries / s: BENCH_WF_DELIVERIES runs of that workflow at once with a notifyUrl at
 *              a loopback receiver in this process (allowed by net.allow_hosts), each run's
 *              completion webhook counted as it arrives: (deliveries - 1) / (last - first arrival),
 *              and run finishedAt -> arrival p50 / p95. PGlite: its ROLE=all process; PostgreSQL:
 *              the API process and one worker (poll = the first of BENCH_WF_POLLS)
 *   env        BENCH_WF_RUNS (200), BENCH_WF_CHAIN_RUNS (60), BENCH_WF_LATENCY_RUNS (24 chains, half
 *              as many 5-step runs), BENCH_WF_GROUP (4), BENCH_WF_POLLS (JOB_POLL_MS values for the
 *              PostgreSQL workers, default "500,50"; PGlite runs with the first), BENCH_WF_WORKERS (worker
 *              process counts on PostgreSQL, default "1,2,4"), BENCH_WF_COLD=1 (PostgreSQL's worker processes
 *              restarted for each load phase instead of frozen with SIGSTOP while its runs are posted), BENCH_WF_PGLITE=0 /
 *              BENCH_WF_POSTGRES=0 (skip one), BENCH_WF_WARM_RUNS (4: 5-step warm-up runs per worker process),
 *              BENCH_WF_CPU_ROUNDS (7; 0 skips the rounds of 1, 2, 4 worker processes in turn; a round
 *              varies by about 15 % on a 2-core host, so the median of 3 decided by chance near 1.15x),
 *              BENCH_WF_CPU_WARM_RUNS (1000 5-step runs per worker process before them: fewer leave the JIT of
 *              a process that ran fewer runs behind, which shows as CPU per run; with 300 a lone worker's JIT
 *              threads still took 2.3 ms a run, tiering drizzle's query builders up to FTL one by one, with 1000
 *              0.3-1.3 ms), BENCH_WF_CPU_ONLY=1
 *              (PostgreSQL runs those rounds only), BENCH_WF_THREADS=1 (those rounds also print the worker
 *              processes' CPU per run by thread), BENCH_WF_COUNT_NOTIFY=1 (those rounds also count the
 *              notifications per run on each channel; the counting connection is one more listener, whose
 *              backend's CPU counts as PostgreSQL's), BENCH_WF_STMTS=1 (those rounds also print their costliest
 *              statements per run: calls, execution ms and rows per call, to compare the counts' work statement by
 *              statement), BENCH_WF_HOOKS (40), BENCH_WF_DELIVERIES (200), BENCH_DIR,
 *              BENCH_STRICT=1 (exit 1 on a MISS)
 */
import { signWebhook, type VektorClient } from "@vektor/shared/client";
import type { Run, RunDetail } from "@vektor/shared/schemas/workflow";
import { isTerminalRun } from "@vektor/shared/schemas/vocab";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuSeconds, startCluster, threadCpuSeconds, treeCpuSeconds, type Cluster, type Proc } from "./lib/cluster";
import { createLogger, inArray, openDatabase, schema, WorkerPool, type Db } from "./lib/deps";
import { smallPdf } from "./lib/inputs";
import { startPostgres, type BenchPostgres } from "./lib/postgres";
import { startServer, type BenchServer } from "./lib/server";
import { Teardown } from "./lib/teardown";
import { availableParallelism } from "node:os";
import { fixed, machineBusySeconds, median, printTable } from "./lib/table";

function intEnv(name: string, fallback: number, min: number): number {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}`);
  return n;
}
const FIVE_RUNS = intEnv("BENCH_WF_RUNS", 200, 1);
const CHAIN_RUNS = intEnv("BENCH_WF_CHAIN_RUNS", 60, 1);
const LAT_RUNS = intEnv("BENCH_WF_LATENCY_RUNS", 24, 2);
const GROUP = intEnv("BENCH_WF_GROUP", 4, 1);
/** 5-step runs per worker process before anything is measured: the tool's WASM and the server's code compiled by the JIT in each. */
const WARM_RUNS = intEnv("BENCH_WF_WARM_RUNS", 4, 1);
/** Rounds of the CPU comparison (1, 2, 4 worker processes in turn, each round FIVE_RUNS 5-step runs per count); 0 skips it. */
const CPU_ROUNDS = intEnv("BENCH_WF_CPU_ROUNDS", 7, 0);
/** 5-step runs per worker process before the rounds (each set warmed alike). */
const CPU_WARM_RUNS = intEnv("BENCH_WF_CPU_WARM_RUNS", 1000, 1);
/** Only those rounds (with BENCH_WF_PGLITE=0: the CPU comparison alone, in a few minutes). */
const CPU_ONLY = process.env.BENCH_WF_CPU_ONLY === "1";
/** BENCH_WF_THREADS=1: the CPU rounds also print the worker processes' CPU per run by thread. */
const THREADS = process.env.BENCH_WF_THREADS === "1";
/** BENCH_WF_STMTS=1: the CPU rounds also print their costliest statements per run. */
const STMTS = process.env.BENCH_WF_STMTS === "1";
const HOOKS = intEnv("BENCH_WF_HOOKS", 40, 2);
const DELIVERIES = intEnv("BENCH_WF_DELIVERIES", 200, 2);
const POLLS = (process.env.BENCH_WF_POLLS ?? "500,50").split(",").map((s) => Number(s.trim()));
if (POLLS.length === 0 || POLLS.some((p) => !Number.isInteger(p) || p < 1)) throw new Error("BENCH_WF_POLLS must be a comma-separated list of positive integers");
const WITH_PGLITE = process.env.BENCH_WF_PGLITE !== "0";
/** PostgreSQL's worker processes restarted for each load phase (JIT and tool worker cold) instead of frozen while its runs are posted. */
const COLD = process.env.BENCH_WF_COLD === "1";
const WITH_POSTGRES = process.env.BENCH_WF_POSTGRES !== "0";
const WORKER_COUNTS = (process.env.BENCH_WF_WORKERS ?? "1,2,4").split(",").map((s) => Number(s.trim()));
if (WORKER_COUNTS.length === 0 || WORKER_COUNTS.some((n) => !Number.isInteger(n) || n < 1)) throw new Error("BENCH_WF_WORKERS must be a comma-separated list of positive integers");
const CHAIN_LEN = 10;
const POST_CONCURRENCY = 16;
const TOOL = "pdf.rotate";
const PARAMS = { degrees: 90 };
const TARGET = { p50: 10, p95: 50, stepsPerSec: 200, scaling: 1.8, cpuVsOne: 1.15 };

const teardown = new Teardown("workflows", process.env.BENCH_DIR ?? tmpdir());
const work = teardown.dir;
let pg: BenchPostgres | null = null;
let cluster: Cluster | null = null;
let server: BenchServer | null = null;
const dbs: { close(): Promise<void> }[] = [];
teardown.add(() => pg?.stop());
teardown.add(() => cluster?.stop());
teardown.add(() => server?.stop());
teardown.add(async () => {
  for (const d of dbs.splice(0)) await d.close().catch(() => {});
});

const log = (msg: string) => console.log(`[workflows] ${msg}`);
const sec = (ms: number) => (ms / 1000).toFixed(1);
const ms = (iso: string | null) => (iso ? Date.parse(iso) : NaN);

/** Nearest-rank percentile (p in 0..1) of the finite values; NaN when there are none. */
function pct(xs: number[], p: number): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] : NaN;
}
const p50 = (xs: number[]) => pct(xs, 0.5);
const p95 = (xs: number[]) => pct(xs, 0.95);
const f1 = (n: number) => (Number.isFinite(n) ? fixed(n, 1) : "-");
const pp = (xs: number[]) => `${f1(p50(xs))} / ${f1(p95(xs))}`;

// ---------------------------------------------------------------- graphs

type NodeSpec = [id: string, type: string, params?: Record<string, unknown>];
/** A straight line of nodes, each feeding the next. */
function linear(nodes: NodeSpec[]): string {
  return JSON.stringify({
    nodes: nodes.map(([id, type, params]) => ({ id, type, data: { type, params: params ?? {} } })),
    edges: nodes.slice(1).map(([id], i) => ({ source: nodes[i][0], target: id })),
  });
}
const CHAIN = linear([["in", "source.upload"], ...Array.from({ length: CHAIN_LEN - 2 }, (_, i): NodeSpec => [`m${i + 1}`, "logic.merge"]), ["out", "sink.download"]]);
const FIVE = linear([["in", "source.upload"], ["rotate", `op.${TOOL}`, PARAMS], ["merge", "logic.merge"], ["filter", "logic.filter", { formats: ["pdf"] }], ["out", "sink.download"]]);
const OP_NODE = "rotate";
/** The shortest run: what a hook starts and what a delivery reports. */
const PASS = linear([["in", "source.upload"], ["out", "sink.download"]]);

// ---------------------------------------------------------------- driving runs

/** Starts one run per entry of `inputs` (`concurrency` POSTs in flight); returns the run ids in order. */
async function startRuns(client: VektorClient, workflowId: string, inputs: string[][], concurrency: number): Promise<string[]> {
  const ids: string[] = new Array(inputs.length);
  let next = 0;
  const lane = async () => {
    while (next < inputs.length) {
      const i = next++;
      ids[i] = (await client.workflows.run(workflowId, inputs[i])).runId;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, lane));
  return ids;
}

/**
 * Waits until `count` of the workflow's runs are terminal (every one must have succeeded). On
 * PostgreSQL it asks the database (one cheap count); on PGlite only the API can (the server
 * holds the database), so it lists the runs, at most every `pollMs`: on a 2-core machine a busy
 * poller would take CPU from the very server it measures.
 */
async function waitRuns(client: VektorClient, workflowId: string, count: number, pollMs: number, timeoutMs = 10 * 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let done: number;
    let bad: string | null = null;
    if (pg) {
      const [r] = await pg.sql<{ done: string; bad: string | null }[]>`
        select count(*) filter (where status in ('succeeded', 'failed', 'cancelled')) as done,
               min(id || ' ended ' || status || ': ' || coalesce(error_code, '') || ' ' || coalesce(error_message, '')) filter (where status in ('failed', 'cancelled')) as bad
        from workflow_run where workflow_id = ${workflowId}`;
      done = Number(r.done);
      bad = r.bad;
    } else {
      const all: Run[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.workflows.runs(workflowId, { limit: 200, cursor });
        all.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      const ended = all.filter((r) => isTerminalRun(r.status));
      const failed = ended.find((r) => r.status !== "succeeded");
      if (failed) bad = `${failed.runId} ended ${failed.status}: ${failed.error?.code} ${failed.error?.message}`;
      done = ended.length;
    }
    if (bad) throw new Error(`run ${bad}`);
    if (done >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${done} of ${count} runs ended within ${timeoutMs / 1000} s`);
    await Bun.sleep(pollMs);
  }
}

async function details(client: VektorClient, runIds: string[]): Promise<RunDetail[]> {
  const out: RunDetail[] = new Array(runIds.length);
  let next = 0;
  const lane = async () => {
    while (next < runIds.length) {
      const i = next++;
      out[i] = await client.workflows.runDetail(runIds[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, runIds.length) }, lane));
  return out;
}

interface Cpu {
  server: number;
  workers: number;
  pg: number;
  bench: number;
}

interface Statement {
  calls: number;
  /** Rows the statement answered over all its calls (a claim that found nothing answers none). */
  rows: number;
  ms: number;
  query: string;
}

interface Phase {
  runs: RunDetail[];
  /** Start of the clock: the first POST (PGlite), or the workers started over the queued runs (PostgreSQL). */
  t0: number;
  /** Posting all runs took this long (ms; not on the clock on PostgreSQL). */
  postMs: number;
  /** The last run's finishedAt (server clock, same machine). */
  end: number;
  cpu: Cpu;
  /** pg_stat_statements over the clock (PostgreSQL only), most expensive first. */
  statements: Statement[] | null;
  /** Share of the machine's CPU that processes other than the benchmark's used meanwhile. */
  others: number;
}

interface Env {
  client: VektorClient;
  /** Input file ids, one per run of a phase (reused across phases). */
  files: string[];
  cpu(): Cpu;
  pollMs: number;
  /** The queue, stopped while a load phase's runs are posted and started on the full queue: PostgreSQL's worker processes; PGlite's server restarted as ROLE=api, then ROLE=all. */
  queue: { start(): Promise<void>; stop(): Promise<void> };
}

/** Light load: `count` runs, `group` at a time (each group ends before the next starts). */
async function lightPhase(e: Env, graphJson: string, name: string, count: number, group = GROUP): Promise<RunDetail[]> {
  const wf = await e.client.workflows.create({ name, graphJson });
  const ids: string[] = [];
  for (let i = 0; i < count; i += group) {
    const n = Math.min(group, count - i);
    ids.push(...(await startRuns(e.client, wf.id, Array.from({ length: n }, (_, k) => [e.files[(i + k) % e.files.length]]), group)));
    await waitRuns(e.client, wf.id, ids.length, pg ? 20 : 25);
  }
  return details(e.client, ids);
}

async function readStatements(): Promise<Statement[] | null> {
  if (!pg?.statements) return null;
  const rows = await pg.sql<{ calls: string; rows: string; total: number; query: string }[]>`
    select calls, rows, total_exec_time as total, query from pg_stat_statements
    where query not ilike '%pg_stat_statements%' and query not ilike '%count(*) filter (where status in%' order by total_exec_time desc`;
  return rows.map((r) => ({ calls: Number(r.calls), rows: Number(r.rows), ms: Number(r.total), query: r.query.replace(/\s+/g, " ").trim() }));
}

/**
 * Load: `count` runs at once, posted with the queue stopped (each run's first step is queued by
 * the API), then the queue started: the clock runs from the start to the last run's finishedAt,
 * so it measures the engine, not the API's POSTs (their time is reported apart).
 */
async function loadPhase(e: Env, graphJson: string, name: string, count: number): Promise<Phase> {
  const wf = await e.client.workflows.create({ name, graphJson });
  const inputs = Array.from({ length: count }, (_, i) => [e.files[i % e.files.length]]);
  await e.queue.stop();
  const tp = performance.now();
  const ids = await startRuns(e.client, wf.id, inputs, POST_CONCURRENCY);
  const postMs = performance.now() - tp;
  await e.queue.start(); // resolves at the processes' banner: the runner has just started claiming
  if (pg) await pg.sql`select pg_stat_statements_reset()`.catch(() => {});
  const busy0 = machineBusySeconds();
  const cpu0 = e.cpu();
  const t0 = Date.now();
  await waitRuns(e.client, wf.id, count, pg ? 50 : 250);
  const cpu1 = e.cpu();
  const busy = machineBusySeconds() - busy0;
  const wallS = (Date.now() - t0) / 1000;
  const statements = await readStatements();
  const runs = await details(e.client, ids);
  const end = Math.max(...runs.map((d) => ms(d.run.finishedAt)));
  if (!(end > t0)) throw new Error(`${name}: the runs ended before the queue was started (${new Date(end).toISOString()} <= ${new Date(t0).toISOString()})`);
  const cpu = { server: cpu1.server - cpu0.server, workers: cpu1.workers - cpu0.workers, pg: cpu1.pg - cpu0.pg, bench: cpu1.bench - cpu0.bench };
  const ours = cpu.server + cpu.workers + cpu.pg + cpu.bench;
  return {
    runs,
    t0,
    postMs,
    end,
    cpu,
    statements,
    others: Math.max(0, busy - ours) / (wallS * availableParallelism()),
  };
}

interface Setup {
  label: string;
  db: "PGlite" | "PostgreSQL";
  workers: number;
  pollMs: number;
  chainLight: RunDetail[];
  fiveLight: RunDetail[];
  chainLoad: Phase;
  fiveLoad: Phase;
}

async function measure(e: Env, label: string, db: Setup["db"], workers: number): Promise<Setup> {
  const tag = label.replace(/[^A-Za-z0-9]+/g, "-");
  log(`${label}: warm-up`);
  // every process's tool worker and JIT warm: several runs in flight per worker process
  await lightPhase(e, FIVE, `warm-${tag}-five`, WARM_RUNS * workers, 4 * workers);
  await lightPhase(e, CHAIN, `warm-${tag}-chain`, 4 * workers, 4 * workers);
  const t = performance.now();
  const chainLight = await lightPhase(e, CHAIN, `light-${tag}-chain`, LAT_RUNS);
  const fiveLight = await lightPhase(e, FIVE, `light-${tag}-five`, Math.max(GROUP, Math.round(LAT_RUNS / 2)));
  log(`${label}: light load done in ${sec(performance.now() - t)} s (${chainLight.length} chains, ${fiveLight.length} 5-step runs, ${GROUP} in flight)`);
  const chainLoad = await loadPhase(e, CHAIN, `load-${tag}-chain`, CHAIN_RUNS);
  log(`${label}: ${CHAIN_RUNS} no-op chains at once: ${fixed((CHAIN_RUNS * CHAIN_LEN) / ((chainLoad.end - chainLoad.t0) / 1000))} steps/s (posting took ${sec(chainLoad.postMs)} s, wall ${sec(chainLoad.end - chainLoad.t0)} s)`);
  const fiveLoad = await loadPhase(e, FIVE, `load-${tag}-five`, FIVE_RUNS);
  log(`${label}: ${FIVE_RUNS} 5-step runs at once: ${fixed(FIVE_RUNS / ((fiveLoad.end - fiveLoad.t0) / 1000), 1)} runs/s (posting took ${sec(fiveLoad.postMs)} s, wall ${sec(fiveLoad.end - fiveLoad.t0)} s)`);
  const c = fiveLoad.cpu;
  log(`${label}: CPU during the 5-step runs: server ${fixed(c.server, 1)} s, workers ${fixed(c.workers, 1)} s, postgres ${fixed(c.pg, 1)} s, bench ${fixed(c.bench, 1)} s; other processes used ${fixed(100 * fiveLoad.others)}% of the machine`);
  return { label, db, workers, pollMs: e.pollMs, chainLight, fiveLight, chainLoad, fiveLoad };
}

// ---------------------------------------------------------------- CPU per run: 1, 2, 4 worker processes in turn

interface CpuRound {
  round: number;
  workers: number;
  /** CPU ms per run of the API, the worker processes and PostgreSQL together. */
  totalMs: number;
  claims: number;
  /** Rows the claims answered per claim: below 1, some found nothing (a claim may take several jobs, so no count of empty ones can be had from these totals). */
  rowsPerClaim: number;
}

const DRAIN_MS = 2000;
const totalCpuMs = (ph: Phase, runs: number) => ((ph.cpu.server + ph.cpu.workers + ph.cpu.pg) * 1000) / runs;

/**
 * Claim statements per run over a phase (pg_stat_statements), and the rows they answered per
 * claim: a claim answers a row per job taken, one row of nulls when due work was held back, none
 * when it found nothing; as a claim may take several jobs, calls minus rows is no count of empty
 * claims (it went below zero), while rows per claim under 1 still says some found nothing.
 */
function claimsPerRun(ph: Phase, runs: number): { claims: number; rowsPerClaim: number } {
  const claims = ph.statements?.filter((st) => /skip locked/i.test(st.query));
  if (!claims) return { claims: NaN, rowsPerClaim: NaN };
  const calls = sum(claims, "calls");
  return { claims: calls / runs, rowsPerClaim: sum(claims, "rows") / calls };
}

/**
 * CPU per 5-step run with each count of worker processes, measured in rounds that take the
 * counts in turn, every other round backwards (1, 2, 4, 4, 2, 1, ...): on a machine others
 * share, the speed drifts over minutes, while the counts of one round meet about the same
 * conditions; so each count is compared by the median of its rounds' ratios to the round's own
 * first count, and the drift favours no count. Every set of processes stays up, warm and frozen
 * (SIGSTOP) while another set runs, and is thawed for DRAIN_MS before its round, idle, to hear
 * what the others' runs notified meanwhile (thousands of notifications, which its round would
 * otherwise pay for).
 */
async function cpuRounds(c: Cluster, p: BenchPostgres, client: VektorClient, files: string[], pollMs: number): Promise<CpuRound[]> {
  const sets = new Map<number, Proc[]>();
  const signal = (ws: Proc[], sig: NodeJS.Signals) => ws.forEach((w) => process.kill(w.pid, sig));
  const envOf = (ws: Proc[]): Env => ({
    client,
    files,
    pollMs,
    queue: { stop: async () => signal(ws, "SIGSTOP"), start: async () => signal(ws, "SIGCONT") },
    cpu: () => ({ server: cpuSeconds(c.api.pid), workers: ws.reduce((t, w) => t + cpuSeconds(w.pid), 0), pg: treeCpuSeconds(p.pid), bench: selfCpu() }),
  });
  const out: CpuRound[] = [];
  const heard = await countNotifications(p);
  try {
    for (const n of WORKER_COUNTS) {
      const ws = await c.addWorkers(n, 1, { JOB_POLL_MS: String(pollMs) });
      sets.set(n, ws);
      // As many runs per process for every count: a process's JIT keeps compiling for a few hundred runs.
      await loadPhase(envOf(ws), FIVE, `cpu-warm-${n}`, CPU_WARM_RUNS * n);
      signal(ws, "SIGSTOP");
    }
    for (let r = 1; r <= CPU_ROUNDS; r++) {
      for (const n of r % 2 ? WORKER_COUNTS : [...WORKER_COUNTS].reverse()) {
        const ws = sets.get(n)!;
        // Thawed a moment first, idle, to hear what the other sets' runs notified while it was frozen.
        signal(ws, "SIGCONT");
        await Bun.sleep(DRAIN_MS);
        const before = heard?.take();
        const threads0 = THREADS ? workerThreads(ws) : null;
        const ph = await loadPhase(envOf(ws), FIVE, `cpu-${n}-${r}`, FIVE_RUNS);
        signal(ws, "SIGSTOP");
        if (threads0) log(`  worker threads, CPU ms per run: ${Object.entries(workerThreads(ws)).filter(([name, t]) => t - (threads0[name] ?? 0) > 0.005).map(([name, t]) => `${name} ${fixed(((t - (threads0[name] ?? 0)) * 1000) / FIVE_RUNS, 1)}`).join(", ")}`);
        if (heard) log(`  notifications per run: ${Object.entries(heard.take()).map(([ch, k]) => `${ch} ${fixed((k - (before?.[ch] ?? 0)) / FIVE_RUNS, 1)}`).join(", ")}`);
        if (STMTS && ph.statements) for (const st of ph.statements.slice(0, 14)) log(`    ${fixed(st.calls / FIVE_RUNS, 2)}/run ${fixed(st.ms / FIVE_RUNS, 3)} ms/run ${fixed(st.rows / Math.max(1, st.calls), 2)} rows/call  ${st.query.replace(/\s+/g, " ").slice(0, 110)}`);
        const { claims, rowsPerClaim } = claimsPerRun(ph, FIVE_RUNS);
        out.push({ round: r, workers: n, totalMs: totalCpuMs(ph, FIVE_RUNS), claims, rowsPerClaim });
        const part = (k: keyof Cpu) => fixed((ph.cpu[k] * 1000) / FIVE_RUNS, 1);
        log(`CPU round ${r}, ${n} worker${n > 1 ? "s" : ""}: ${fixed(totalCpuMs(ph, FIVE_RUNS), 1)} ms per 5-step run (API ${part("server")}, workers ${part("workers")}, PostgreSQL ${part("pg")}), ${fixed(claims, 1)} claims per run (${fixed(rowsPerClaim, 2)} rows each); other processes used ${fixed(100 * ph.others)}% of the machine`);
      }
    }
  } finally {
    for (const ws of sets.values()) signal(ws, "SIGCONT");
    await c.stopWorkers();
  }
  return out;
}

/** The CPU seconds of the processes' threads so far, summed by thread name over the processes. */
function workerThreads(ws: Proc[]): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const w of ws) for (const [name, t] of Object.entries(threadCpuSeconds(w.pid))) sum[name] = (sum[name] ?? 0) + t;
  return sum;
}

/** BENCH_WF_COUNT_NOTIFY=1: a listener of every channel the service notifies on; `take` answers the counts so far. */
async function countNotifications(p: BenchPostgres): Promise<{ take(): Record<string, number> } | null> {
  if (process.env.BENCH_WF_COUNT_NOTIFY !== "1") return null;
  const counts: Record<string, number> = {};
  for (const channel of ["vektor_jobs", "vektor_tables", "vektor_invalidate", "vektor_batches"]) {
    counts[channel] = 0;
    await p.sql.listen(channel, () => void counts[channel]++);
  }
  return { take: () => ({ ...counts }) };
}

// ---------------------------------------------------------------- what the timestamps say

interface JobTimes {
  created: number;
  started: number;
  finished: number;
}
/** The control (workflow.step) and tool (tool.run) job of each step, by step id (the last one when a step ran twice). */
type StepJobs = Map<string, { ctrl?: JobTimes; tool?: JobTimes }>;

async function readJobs(db: Db, into: StepJobs): Promise<void> {
  const rows = await db
    .select({ kind: schema.job.kind, data: schema.job.data, created: schema.job.createdAt, started: schema.job.startedAt, finished: schema.job.finishedAt })
    .from(schema.job)
    .where(inArray(schema.job.kind, ["workflow.step", "tool.run"]));
  rows.sort((a, b) => a.created.getTime() - b.created.getTime());
  for (const r of rows) {
    const stepId = (r.data as { stepId?: string } | null)?.stepId;
    if (!stepId || !r.started || !r.finished) continue;
    const t = { created: r.created.getTime(), started: r.started.getTime(), finished: r.finished.getTime() };
    const entry = into.get(stepId) ?? {};
    if (r.kind === "workflow.step") entry.ctrl = t;
    else entry.tool = t;
    into.set(stepId, entry);
  }
}

/** Step ids are not in the API's view; the job rows name them, so match a step by its run and node via the control job's data. */
async function readStepIds(db: Db): Promise<Map<string, string>> {
  const rows = await db.select({ id: schema.workflowStep.id, runId: schema.workflowStep.runId, nodeId: schema.workflowStep.nodeId }).from(schema.workflowStep);
  return new Map(rows.map((r) => [`${r.runId}/${r.nodeId}`, r.id]));
}

interface Pairs {
  /** successor.startedAt - predecessor.finishedAt */
  gap: number[];
  /** predecessor.finishedAt -> successor.finishedAt, no-op successors only */
  turn: number[];
}
function pairs(runs: RunDetail[], skipOp = false): Pairs {
  const out: Pairs = { gap: [], turn: [] };
  for (const d of runs) {
    for (let i = 1; i < d.steps.length; i++) {
      const a = d.steps[i - 1];
      const b = d.steps[i];
      out.gap.push(ms(b.startedAt) - ms(a.finishedAt));
      if (!(skipOp && b.nodeId === OP_NODE)) out.turn.push(ms(b.finishedAt) - ms(a.finishedAt));
    }
  }
  return out;
}

interface Hops {
  /** The run's first step: queued by the API, claimed by a worker. */
  first: number[];
  /** No-op steps after the first: queued -> control job claimed. */
  wait: number[];
  /** No-op steps: claimed -> step finished (reads, execute, the locked transaction that starts the next). */
  handler: number[];
  /** op step: queued -> control job claimed; control handler until the tool job is queued; tool job queued -> claimed; tool job claimed -> finished; tool job finished -> step finished. */
  opWait: number[];
  opCtrl: number[];
  toolWait: number[];
  toolRun: number[];
  opSettle: number[];
  /** op step startedAt -> finishedAt. */
  opTotal: number[];
}
function hops(runs: RunDetail[], stepIds: Map<string, string>, jobs: StepJobs): Hops {
  const h: Hops = { first: [], wait: [], handler: [], opWait: [], opCtrl: [], toolWait: [], toolRun: [], opSettle: [], opTotal: [] };
  for (const d of runs) {
    d.steps.forEach((s, i) => {
      const j = jobs.get(stepIds.get(`${d.run.runId}/${s.nodeId}`) ?? "");
      const start = ms(s.startedAt);
      const end = ms(s.finishedAt);
      if (!j?.ctrl) return;
      if (s.nodeId === OP_NODE) {
        h.opTotal.push(end - start);
        h.opWait.push(j.ctrl.started - start);
        if (j.tool) {
          h.opCtrl.push(j.tool.created - j.ctrl.started);
          h.toolWait.push(j.tool.started - j.tool.created);
          h.toolRun.push(j.tool.finished - j.tool.started);
          h.opSettle.push(end - j.tool.finished);
        }
        return;
      }
      if (i === 0) h.first.push(j.ctrl.started - start);
      else h.wait.push(j.ctrl.started - start);
      h.handler.push(end - j.ctrl.started);
    });
  }
  return h;
}

/** The tool's own time on `bytes` in a warm pool of one worker (first run discarded), as a worker process runs it. */
async function toolTimeMs(bytes: Uint8Array, runs: number): Promise<number> {
  const pool = new WorkerPool(1, createLogger("silent"));
  try {
    const xs: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const t0 = performance.now();
      const out = await pool.run({ id: `t${i}`, slug: TOOL, inputs: [{ name: "item.pdf", bytes: bytes.slice(), mime: "application/pdf" }], params: PARAMS, timeoutMs: 120_000 });
      if (!out.ok) throw new Error(`${TOOL} in the pool: ${out.error.message}`);
      if (i > 0) xs.push(performance.now() - t0);
    }
    return median(xs);
  } finally {
    await pool.close();
  }
}

async function uploadInputs(client: VektorClient, count: number): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      ids[i] = (await client.files.upload(new Blob([await smallPdf(i)]), { filename: `item-${String(i + 1).padStart(4, "0")}.pdf`, mime: "application/pdf" })).fileId;
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, count) }, lane));
  return ids;
}

async function prepare(client: VektorClient, email: string): Promise<string[]> {
  await client.admin.setConfig("platform_configs", { "ratelimit.per_minute": 1_000_000, "processing.max_concurrent_per_user": 1000 });
  await client.admin.grantCredits({ email, amount: 1_000_000, reason: "benchmark" });
  const t = performance.now();
  // 50 distinct inputs, reused round-robin: runs that share one are far apart in the queue
  const files = await uploadInputs(client, Math.min(50, Math.max(FIVE_RUNS, 4 * GROUP)));
  log(`uploaded ${files.length} one-page PDFs in ${sec(performance.now() - t)} s`);
  return files;
}

const sum = (xs: Statement[], k: "calls" | "rows" | "ms") => xs.reduce((a, x) => a + x[k], 0);

const selfCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

// ---------------------------------------------------------------- triggers: hook and deliveries

interface Triggers {
  label: string;
  /** request sent -> hook answered (run created, charged, first step queued), ms */
  answer: number[];
  /** request sent -> the run's first step finished, ms */
  started: number[];
  deliveries: number;
  /** first -> last delivery arrival, ms */
  spanMs: number;
  /** run finishedAt -> its delivery's arrival, ms */
  lag: number[];
}

/** A loopback receiver of completion webhooks: each arrival's time, by run id. */
function deliveryReceiver() {
  const arrivals = new Map<string, number>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = (await req.json()) as { runId: string };
      arrivals.set(body.runId, Date.now());
      return new Response(null, { status: 204 });
    },
  });
  return { arrivals, server, url: `http://127.0.0.1:${server.port}/notify` };
}

/** Signed hook requests one at a time, then runs that each send a completion webhook, all at once. */
async function triggerPhase(client: VektorClient, files: string[], label: string): Promise<Triggers> {
  const hooked = await client.workflows.create({ name: `hook-${label}`, graphJson: PASS });
  const { secret } = await client.workflows.triggers.put(hooked.id, { type: "webhook" });
  const answer: number[] = [];
  const sent: { runId: string; at: number }[] = [];
  for (let i = 0; i < HOOKS; i++) {
    const body = JSON.stringify({ fileIds: [files[i % files.length]] });
    const ts = Math.floor(Date.now() / 1000);
    const headers = { "content-type": "application/json", "x-service-timestamp": String(ts), "x-service-signature": await signWebhook(secret, ts, body) };
    const t0 = Date.now();
    const res = await fetch(`${client.t.baseUrl}/api/workflows/${hooked.id}/hook`, { method: "POST", headers, body });
    const t1 = Date.now();
    if (!res.ok) throw new Error(`hook answered ${res.status}: ${await res.text()}`);
    const { data } = (await res.json()) as { data: { runId: string } };
    answer.push(t1 - t0);
    sent.push({ runId: data.runId, at: t0 });
    await waitRuns(client, hooked.id, i + 1, pg ? 10 : 25);
  }
  const hookRuns = await details(client, sent.map((x) => x.runId));
  const started = hookRuns.map((d, i) => ms(d.steps[0].finishedAt) - sent[i].at);

  const recv = deliveryReceiver();
  try {
    await client.admin.setConfig("platform_configs", { "net.allow_hosts": [`127.0.0.1:${recv.server.port}`] });
    await Bun.sleep(2500); // other processes read the configuration through a 2 s cache
    const notified = await client.workflows.create({ name: `notify-${label}`, graphJson: PASS, paramsJson: JSON.stringify({ notifyUrl: recv.url }) });
    const ids = await startRuns(client, notified.id, Array.from({ length: DELIVERIES }, (_, i) => [files[i % files.length]]), POST_CONCURRENCY);
    for (const deadline = Date.now() + 10 * 60_000; recv.arrivals.size < DELIVERIES; ) {
      if (Date.now() > deadline) throw new Error(`only ${recv.arrivals.size} of ${DELIVERIES} deliveries arrived`);
      await Bun.sleep(20);
    }
    const runs = await details(client, ids);
    const times = [...recv.arrivals.values()];
    const lag = runs.map((d) => recv.arrivals.get(d.run.runId)! - ms(d.run.finishedAt));
    const failed = runs.flatMap((d) => d.deliveries).filter((x) => x.status !== "succeeded");
    if (failed.length) throw new Error(`${failed.length} deliveries did not succeed, e.g. ${JSON.stringify(failed[0])}`);
    return { label, answer, started, deliveries: DELIVERIES, spanMs: Math.max(...times) - Math.min(...times), lag };
  } finally {
    recv.server.stop(true);
  }
}

// ---------------------------------------------------------------- main

const benchStart = performance.now();
const setups: Setup[] = [];
const stepIds = new Map<string, string>();
const jobs: StepJobs = new Map();
const triggerResults: Triggers[] = [];
const cpuResults: CpuRound[] = [];
try {
  const sample = await smallPdf(0);
  const toolMs = await toolTimeMs(sample, 20);
  log(`${TOOL} on one small PDF in a warm pool: ${fixed(toolMs, 1)} ms (median of 20)`);

  if (WITH_PGLITE) {
    const dataDir = join(work, "pglite");
    const pollMs = POLLS[0];
    log(`PGlite: one ROLE=all process, TOOL_WORKERS=1, JOB_POLL_MS=${pollMs}`);
    // No warm-up requests: the queue starts before them (they need its tool lanes), so with them
    // a load phase's runs were done before the banner the clock starts at.
    const base = { TOOL_WORKERS: "1", JOB_POLL_MS: String(pollMs), DATABASE_URL: "", WARM_UP_REQUESTS: "0" };
    server = await startServer(dataDir, { ...base, ROLE: "all" });
    const port = Number(new URL(server.url).port);
    const client = await server.admin();
    const email = ((await client.account()) as { email: string }).email;
    const files = await prepare(client, email);
    // The queue stops with a restart as ROLE=api (HTTP only) on the same data and port, and starts with one as ROLE=all.
    const restart = async (role: "api" | "all") => {
      await server?.stop();
      server = null;
      server = await startServer(dataDir, { ...base, ROLE: role }, { port, ready: role === "all" ? "banner" : "health" });
    };
    const env: Env = { client, files, pollMs, cpu: () => ({ server: server ? cpuSeconds(server.pid) : 0, workers: 0, pg: 0, bench: selfCpu() }), queue: { stop: () => restart("api"), start: () => restart("all") } };
    setups.push(await measure(env, `PGlite, 1 process (poll ${pollMs} ms)`, "PGlite", 1));
    triggerResults.push(await triggerPhase(client, files, `PGlite, 1 process (poll ${pollMs} ms)`));
    await server?.stop();
    server = null;
    // PGlite is one process's file: read the job rows once its server has closed it.
    const db = await openDatabase({ databaseUrl: null, dataDir });
    for (const [k, v] of await readStepIds(db.db)) stepIds.set(k, v);
    await readJobs(db.db, jobs);
    await db.close();
  }

  if (WITH_POSTGRES) {
    log(`PostgreSQL: one ROLE=api process (no queue) + ${WORKER_COUNTS.join(" / ")} ROLE=worker processes (TOOL_WORKERS=1, JOB_CONTROL_LANES default)`);
    pg = await startPostgres();
    cluster = await startCluster({ dataDir: join(work, "pg-data"), databaseUrl: pg.url });
    const client = await cluster.admin();
    const files = await prepare(client, cluster.adminEmail);
    const c = cluster;
    const p = pg;
    for (const pollMs of CPU_ONLY ? [] : POLLS) {
      for (const n of WORKER_COUNTS) {
        const launch = () => c.addWorkers(n, 1, { JOB_POLL_MS: String(pollMs) }).then(() => {});
        // Warm: the worker processes are frozen (SIGSTOP) while a load phase's runs are posted and
        // thawed to run them, so the clock sees the processes the warm-up warmed; cold: restarted.
        const signal = (sig: NodeJS.Signals) => async () => void c.workers.forEach((w) => process.kill(w.pid, sig));
        const queue = COLD ? { start: launch, stop: () => c.stopWorkers() } : { start: signal("SIGCONT"), stop: signal("SIGSTOP") };
        await launch();
        const env: Env = {
          client,
          files,
          pollMs,
          queue,
          cpu: () => ({ server: cpuSeconds(c.api.pid), workers: c.workers.reduce((s, w) => s + cpuSeconds(w.pid), 0), pg: treeCpuSeconds(p.pid), bench: selfCpu() }),
        };
        setups.push(await measure(env, `PostgreSQL, ${n} worker${n > 1 ? "s" : ""} (poll ${pollMs} ms)`, "PostgreSQL", n));
        await c.stopWorkers();
      }
    }
    if (!CPU_ONLY) {
      await c.addWorkers(1, 1, { JOB_POLL_MS: String(POLLS[0]) });
      triggerResults.push(await triggerPhase(client, files, `PostgreSQL, 1 worker (poll ${POLLS[0]} ms)`));
      await c.stopWorkers();
    }
    if (CPU_ROUNDS > 0) {
      log(`CPU per 5-step run: ${CPU_ROUNDS} rounds of ${WORKER_COUNTS.join(", ")} worker processes in turn (poll ${POLLS[0]} ms)`);
      cpuResults.push(...(await cpuRounds(c, p, client, files, POLLS[0])));
    }
    const db = await openDatabase({ databaseUrl: pg.url, dataDir: join(work, "pg-data") });
    dbs.push(db);
    for (const [k, v] of await readStepIds(db.db)) stepIds.set(k, v);
    await readJobs(db.db, jobs);
  }

  // ---------------------------------------------------------------- report
  let allPass = true;
  const verdict = (ok: boolean) => {
    allPass &&= ok;
    return ok ? "PASS" : "MISS";
  };
  const cell = (value: number, ok: boolean | null, digits = 1) => (Number.isFinite(value) ? `${fixed(value, digits)}${ok === null ? "" : ` ${verdict(ok)}`}` : "-");
  const rate = (ph: Phase, units: number) => units / ((ph.end - ph.t0) / 1000);
  const baseOf = (s: Setup) => setups.find((b) => b.db === s.db && b.pollMs === s.pollMs && b.workers === 1);

  if (setups.length) {
    const rows: (string | number)[][] = [];
    const row = (what: string, target: string, f: (s: Setup) => string) => rows.push([what, target, ...setups.map(f)]);
    const chainP = setups.map((s) => pairs(s.chainLight));
    const fiveP = setups.map((s) => pairs(s.fiveLight, true));
    const loadP = setups.map((s) => pairs(s.chainLoad.runs));
    const at = (s: Setup) => setups.indexOf(s);
    row("no-op chain: step end -> successor startedAt, p50 ms", `< ${TARGET.p50}`, (s) => cell(p50(chainP[at(s)].gap), p50(chainP[at(s)].gap) < TARGET.p50));
    row("no-op chain: step end -> successor startedAt, p95 ms", `< ${TARGET.p95}`, (s) => cell(p95(chainP[at(s)].gap), p95(chainP[at(s)].gap) < TARGET.p95));
    row("no-op chain: step end -> successor end (whole transition), p50 ms", `< ${TARGET.p50}`, (s) => cell(p50(chainP[at(s)].turn), p50(chainP[at(s)].turn) < TARGET.p50));
    row("no-op chain: step end -> successor end (whole transition), p95 ms", `< ${TARGET.p95}`, (s) => cell(p95(chainP[at(s)].turn), p95(chainP[at(s)].turn) < TARGET.p95));
    row("5-step (pdf.rotate): step end -> successor startedAt, p50 ms", `< ${TARGET.p50}`, (s) => cell(p50(fiveP[at(s)].gap), p50(fiveP[at(s)].gap) < TARGET.p50));
    row("5-step (pdf.rotate): step end -> successor startedAt, p95 ms", `< ${TARGET.p95}`, (s) => cell(p95(fiveP[at(s)].gap), p95(fiveP[at(s)].gap) < TARGET.p95));
    row("5-step: step end -> no-op successor end, p50 / p95 ms", "-", (s) => pp(fiveP[at(s)].turn));
    row(`5-step: op step start -> end minus ${TOOL} in a warm pool (${fixed(toolMs, 1)} ms), p50 / p95 ms`, "-", (s) => {
      const total = s.fiveLight.map((d) => d.steps.find((x) => x.nodeId === OP_NODE)!).map((x) => ms(x.finishedAt) - ms(x.startedAt) - toolMs);
      return pp(total);
    });
    row(`no-op chain, ${CHAIN_RUNS} runs at once: step end -> successor end, p50 / p95 ms`, "-", (s) => pp(loadP[at(s)].turn));
    row(`no-op transitions / s per worker process (${CHAIN_RUNS} x ${CHAIN_LEN}-step chains at once)`, `>= ${TARGET.stepsPerSec}`, (s) => {
      const r = rate(s.chainLoad, CHAIN_RUNS * CHAIN_LEN) / s.workers;
      return cell(r, r >= TARGET.stepsPerSec, 0);
    });
    row(`5-step runs / s (${FIVE_RUNS} at once)`, "-", (s) => cell(rate(s.fiveLoad, FIVE_RUNS), null, 1));
    row("scaling of 5-step runs / s vs 1 worker (same database and poll)", `>= ${TARGET.scaling}x`, (s) => {
      const b = baseOf(s);
      if (s.db !== "PostgreSQL" || s.workers === 1 || !b) return "-";
      const x = rate(s.fiveLoad, FIVE_RUNS) / rate(b.fiveLoad, FIVE_RUNS);
      return `${fixed(x, 2)}x ${verdict(x >= TARGET.scaling)}`;
    });
    // Scaling needs idle cores: on a 2-core machine one worker process and PostgreSQL already keep both busy.
    const cores = (ph: Phase) => {
      const wallS = (ph.end - ph.t0) / 1000;
      return `${fixed((ph.cpu.server + ph.cpu.workers + ph.cpu.pg + ph.cpu.bench) / wallS, 2)} + ${fixed(ph.others * availableParallelism(), 2)}`;
    };
    row(`5-step load: CPU cores busy, the engine's processes + other processes (machine: ${availableParallelism()})`, "-", (s) => cores(s.fiveLoad));
    row(`no-op chain load: CPU cores busy, the engine's processes + other processes (machine: ${availableParallelism()})`, "-", (s) => cores(s.chainLoad));
    row("scaling of no-op transitions / s vs 1 worker", "-", (s) => {
      const b = baseOf(s);
      if (s.db !== "PostgreSQL" || s.workers === 1 || !b) return "-";
      return `${fixed(rate(s.chainLoad, CHAIN_RUNS) / rate(b.chainLoad, CHAIN_RUNS), 2)}x`;
    });
    console.log(
      `\nworkflows: light load = ${LAT_RUNS} no-op chains and ${Math.max(GROUP, Math.round(LAT_RUNS / 2))} 5-step runs, ${GROUP} in flight; ` +
        `PGlite: one ROLE=all process; PostgreSQL: ROLE=api + N ROLE=worker processes; TOOL_WORKERS=1 and JOB_CONTROL_LANES=4 per process. ` +
        `NB kinds that only read the database (source, op, filter, merge, download) run inside the transition that readies them, so their startedAt is the moment ` +
        `their predecessor ended; a run's first step, and kinds that write objects or wait (zip, rename, approval), are queued as jobs, startedAt set when queued.\n`,
    );
    printTable(["measurement", "target", ...setups.map((s) => s.label)], rows);

    const hopRows = setups.map((s) => {
      const light = hops([...s.chainLight, ...s.fiveLight], stepIds, jobs);
      return [s.label, pp(light.first), pp(light.wait), pp(light.handler), pp(light.opWait), pp(light.opCtrl), pp(light.toolWait), pp(light.toolRun), pp(light.opSettle)];
    });
    console.log(`\nwhere the time goes under light load, p50 / p95 ms (job rows; ${TOOL} alone in a warm pool: ${fixed(toolMs, 1)} ms):\n`);
    printTable(
      ["setup", "run's 1st step: queued (API) -> claimed", "no-op step: queued -> claimed", "no-op step: claimed -> finished", "op step: queued -> claimed", "op: claimed -> tool job queued", "tool job: queued -> claimed", "tool job: claimed -> finished", "tool job finished -> op step finished"],
      hopRows,
    );

    const cpuPer = (ph: Phase, units: number, k: keyof Cpu) => fixed((ph.cpu[k] * 1000) / units, 1);
    const stmts = (ph: Phase, units: number, k: "calls" | "ms", digits: number) => (ph.statements ? fixed(sum(ph.statements, k) / units, digits) : "-");
    const steps = CHAIN_RUNS * CHAIN_LEN;
    console.log(
      `\nunder load: ${CHAIN_RUNS} no-op chains (${steps} steps), then ${FIVE_RUNS} 5-step runs, posted ${POST_CONCURRENCY} at a time with the queue stopped ` +
        `(PostgreSQL: ${COLD ? "no worker process" : "the warm worker processes frozen with SIGSTOP"}; PGlite: its server restarted as ROLE=api), clock from the queue's start ` +
        `(workers ${COLD ? "started, cold" : "thawed"}; PGlite restarted as ROLE=all on the same data, cold) to the last run's finishedAt. CPU: user + system of each process over the clock\n`,
    );
    printTable(
      ["setup", "chains: posting s", "wall s", "steps/s", "no-op step: queued -> claimed p50/p95 ms", "claimed -> finished p50/p95 ms", "CPU ms / step: API or ROLE=all", "workers", "postgres", "SQL statements / step", "DB exec ms / step", "other processes' CPU share"],
      setups.map((s) => {
        const ch = hops(s.chainLoad.runs, stepIds, jobs);
        const pgRow = s.db === "PostgreSQL";
        return [s.label, sec(s.chainLoad.postMs), sec(s.chainLoad.end - s.chainLoad.t0), fixed(rate(s.chainLoad, steps)), pp(ch.wait), pp(ch.handler), cpuPer(s.chainLoad, steps, "server"), pgRow ? cpuPer(s.chainLoad, steps, "workers") : "-", pgRow ? cpuPer(s.chainLoad, steps, "pg") : "-", stmts(s.chainLoad, steps, "calls", 1), stmts(s.chainLoad, steps, "ms", 2), `${fixed(100 * s.chainLoad.others)}%`];
      }),
    );
    console.log("");
    printTable(
      ["setup", "5-step: posting s", "wall s", "runs/s", "tool job: queued -> claimed p50/p95 ms", "claimed -> finished p50/p95 ms", "CPU ms / run: API or ROLE=all", "workers", "postgres", "bench client", "SQL statements / run", "DB exec ms / run", "other processes' CPU share"],
      setups.map((s) => {
        const fv = hops(s.fiveLoad.runs, stepIds, jobs);
        const pgRow = s.db === "PostgreSQL";
        return [s.label, sec(s.fiveLoad.postMs), sec(s.fiveLoad.end - s.fiveLoad.t0), fixed(rate(s.fiveLoad, FIVE_RUNS), 1), pp(fv.toolWait), pp(fv.toolRun), cpuPer(s.fiveLoad, FIVE_RUNS, "server"), pgRow ? cpuPer(s.fiveLoad, FIVE_RUNS, "workers") : "-", pgRow ? cpuPer(s.fiveLoad, FIVE_RUNS, "pg") : "-", cpuPer(s.fiveLoad, FIVE_RUNS, "bench"), stmts(s.fiveLoad, FIVE_RUNS, "calls", 0), stmts(s.fiveLoad, FIVE_RUNS, "ms", 1), `${fixed(100 * s.fiveLoad.others)}%`];
      }),
    );
    const pgSetups = setups.filter((s) => s.db === "PostgreSQL");
    if (pgSetups.length) {
      console.log(
        `\nCPU per 5-step run on PostgreSQL, ${FIVE_RUNS} runs at once, every process of the service: the API, the worker processes and PostgreSQL ` +
          `(postmaster and its backends), user + system from /proc over the clock (the bench client's own polling apart). ` +
          `Claims: the queue's claim statements per run (pg_stat_statements), and the rows each answered (a row per job taken; under 1, some found nothing). ` +
          `vs 1 worker: one phase each, minutes apart, its processes warmed by ${WARM_RUNS} runs each (their JIT far from done); the target (<= ${TARGET.cpuVsOne}x) is judged over the rounds below\n`,
      );
      printTable(
        ["setup", "API ms", "workers ms", "postgres ms", "total ms / run", "vs 1 worker", "claims / run", "rows / claim", "bench client ms"],
        pgSetups.map((s) => {
          const c = s.fiveLoad.cpu;
          const total = ((c.server + c.workers + c.pg) * 1000) / FIVE_RUNS;
          const b = baseOf(s);
          const one = b ? ((b.fiveLoad.cpu.server + b.fiveLoad.cpu.workers + b.fiveLoad.cpu.pg) * 1000) / FIVE_RUNS : NaN;
          const x = total / one;
          const claims = s.fiveLoad.statements?.filter((st) => /skip locked/i.test(st.query)) ?? null;
          const calls = claims ? sum(claims, "calls") : NaN;
          const rowsPerClaim = claims ? sum(claims, "rows") / calls : NaN;
          return [s.label, cpuPer(s.fiveLoad, FIVE_RUNS, "server"), cpuPer(s.fiveLoad, FIVE_RUNS, "workers"), cpuPer(s.fiveLoad, FIVE_RUNS, "pg"), fixed(total, 1),
            s.workers === 1 || !b ? "-" : `${fixed(x, 2)}x`, f1(calls / FIVE_RUNS), fixed(rowsPerClaim, 2), cpuPer(s.fiveLoad, FIVE_RUNS, "bench")];
        }),
      );
    }
    const top = setups.find((s) => s.chainLoad.statements?.length);
    if (top) {
      console.log(`\nmost expensive statements, ${top.label}, ${CHAIN_RUNS} no-op chains (per step = calls / ${steps}; idle lanes' claim polls included):\n`);
      printTable(
        ["calls / step", "total ms", "mean ms", "statement"],
        top.chainLoad.statements!.slice(0, 10).map((x) => [fixed(x.calls / steps, 2), fixed(x.ms), fixed(x.ms / x.calls, 3), x.query.slice(0, 120)]),
      );
    }
    const five = setups.find((s) => s.fiveLoad.statements?.length);
    if (five) {
      // Each statement is a round trip: its count per run, not its execution time, is what a worker's CPU per run follows.
      console.log(`\nstatements of a 5-step run, ${five.label}, ${FIVE_RUNS} runs (per run = calls / ${FIVE_RUNS}), most frequent first:\n`);
      printTable(
        ["calls / run", "total ms", "mean ms", "statement"],
        [...five.fiveLoad.statements!].sort((a, b) => b.calls - a.calls).slice(0, 30).map((x) => [fixed(x.calls / FIVE_RUNS, 2), fixed(x.ms), fixed(x.ms / x.calls, 3), x.query.slice(0, 120)]),
      );
    }
  }
  if (cpuResults.length) {
    console.log(
      `\nCPU per 5-step run on PostgreSQL, ${CPU_ROUNDS} rounds taking the counts of worker processes in turn, ${FIVE_RUNS} runs at once each (every process: API, workers, PostgreSQL; ` +
        `each set warm, frozen while another runs); median and every round, ms; vs ${WORKER_COUNTS[0]}: the median of each round's ratio to that round's own figure\n`,
    );
    const of = (n: number) => cpuResults.filter((x) => x.workers === n);
    const first = new Map(of(WORKER_COUNTS[0]).map((x) => [x.round, x.totalMs]));
    printTable(
      ["worker processes", "CPU ms / run, median", `vs ${WORKER_COUNTS[0]} worker${WORKER_COUNTS[0] > 1 ? "s" : ""}`, "rounds", "ratio per round", "claims / run", "rows / claim"],
      WORKER_COUNTS.map((n) => {
        const xs = of(n);
        const ratios = xs.map((x) => x.totalMs / first.get(x.round)!);
        const ratio = median(ratios);
        const vs = n === WORKER_COUNTS[0] ? "-" : `${fixed(ratio, 2)}x ${verdict(ratio <= TARGET.cpuVsOne)} (<= ${TARGET.cpuVsOne}x)`;
        return [n, fixed(median(xs.map((x) => x.totalMs)), 1), vs, xs.map((x) => fixed(x.totalMs, 1)).join(" / "), n === WORKER_COUNTS[0] ? "-" : ratios.map((x) => fixed(x, 2)).join(" / "), f1(median(xs.map((x) => x.claims))), fixed(median(xs.map((x) => x.rowsPerClaim)), 2)];
      }),
    );
  }
  if (triggerResults.length) {
    console.log(`\ntriggers: ${HOOKS} signed hook requests one at a time (2-step run); ${DELIVERIES} runs at once, each sending its completion webhook to a loopback receiver\n`);
    printTable(
      ["setup", "hook request -> answer p50 / p95 ms", "hook request -> run's first step finished p50 / p95 ms", "deliveries / s", "run finishedAt -> delivery arrived p50 / p95 ms"],
      triggerResults.map((t) => [t.label, pp(t.answer), pp(t.started), fixed((t.deliveries - 1) / (t.spanMs / 1000), 1), pp(t.lag)]),
    );
  }
  const shares = setups.flatMap((s) => [s.chainLoad.others, s.fiveLoad.others]);
  if (shares.length === 0) shares.push(0);
  const busy = Math.max(...shares) > 0.1 ? " -- WARNING: the machine was busy with other work, numbers are unreliable" : "";
  console.log(`\nmachine: ${availableParallelism()} CPUs; other processes used ${fixed(100 * Math.min(...shares))}-${fixed(100 * Math.max(...shares))}% of it during the load phases${busy}; benchmark wall ${sec(performance.now() - benchStart)} s`);
  if (!allPass && process.env.BENCH_STRICT === "1") process.exitCode = 1;
} finally {
  await teardown.run();
}
