/**
 * Tools through the API, as a client calls them (issue 24): POST /api/tools/{slug} on a fresh
 * server (ROLE=all, one process) timed from the request to the parsed answer, beside the native
 * program on the same files in the same run, and where the time of each call went. The server
 * runs with JOB_TRACE=1, so each answer carries a Server-Timing header of its job's steps
 * (server/src/lib/job-trace.ts); what the steps do not cover is the wire (the request's and the
 * answer's transport and serialisation, on both sides of loopback).
 */
import type { VektorClient } from "@vektor/shared/client";
import { mkdirSync, rmSync } from "node:fs";
import { timeCommand } from "./native";
import { startServer, type BenchServer } from "./server";
import { median } from "./table";

export interface CallFile {
  name: string;
  path: string;
  mime: string;
}

export interface CallCase {
  slug: string;
  input: string;
  params: Record<string, unknown>;
  files: CallFile[];
  native: { label: string; argv: (inputs: string[], out: string) => string[] };
  /** Through the API / native, at most. */
  target: number;
  /** A small input: the row is about the fixed overhead of a call, not the ratio. */
  small?: boolean;
}

/** The server's steps, in path order (TRACE_STEPS of job-trace.ts after "request"), then the client's. */
export const STEPS = ["auth", "insert", "claim", "inputs", "transfer", "tool", "outputs", "commit", "answer"] as const;

export interface Call {
  totalMs: number;
  steps: Record<string, number>;
}

export interface CallResult {
  c: CallCase;
  calls: Call[];
  /** Small cases only: as many calls again, one right after another (no native run between). */
  backToBack: Call[];
  native: number[];
  error?: string;
}

/** Parses `a;dur=1.5, b;dur=2` into { a: 1.5, b: 2 }. */
function serverTiming(header: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (header ?? "").split(",")) {
    const m = /^\s*([\w-]+);dur=([\d.]+)/.exec(part);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

async function call(client: VektorClient, c: CallCase, fileIds: string[]): Promise<Call> {
  const body = JSON.stringify({ fileIds, params: c.params });
  const t0 = performance.now();
  const res = await client.t.fetch(`/api/tools/${c.slug}`, { method: "POST", headers: { "content-type": "application/json" }, body });
  const json = (await res.json()) as { data?: { status?: string; errorCode?: string; error?: string } };
  const totalMs = performance.now() - t0;
  if (res.status !== 200 || json.data?.status !== "succeeded") throw new Error(`${c.slug} answered ${res.status} ${json.data?.status ?? ""} ${json.data?.errorCode ?? ""} ${json.data?.error ?? JSON.stringify(json).slice(0, 200)}`);
  return { totalMs, steps: serverTiming(res.headers.get("server-timing")) };
}

/** The fixed overhead of a call: everything but the tool's own run. */
export const overheadOf = (x: Call) => x.totalMs - (x.steps.tool ?? 0);

/**
 * A signed-in request that runs no job (GET /api/files?limit=1, answered from memory), timed by
 * the client as a call is: what any request costs on this host, the floor under a call's overhead.
 */
export interface SignedInFloor {
  /** Each right after a native run, as the small calls are judged. */
  afterNative: number[];
  backToBack: number[];
}

/**
 * Starts a server on `dataDir` (`databaseUrl`: on PostgreSQL), uploads the cases' files once and
 * measures each case: `warmups` untimed calls, then `runs(c)` rounds of a call and a native run.
 * Then, on the same server, the signed-in floor (SignedInFloor), as many times as the small calls.
 */
export async function measureCalls(opts: { dataDir: string; databaseUrl?: string; outDir: string; cases: CallCase[]; runs: (c: CallCase) => number; log: (msg: string) => void }): Promise<{ results: CallResult[]; floor: SignedInFloor }> {
  const env: Record<string, string> = { JOB_TRACE: "1", ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}) };
  let server: BenchServer | null = null;
  try {
    server = await startServer(opts.dataDir, env);
    const client = await server.admin();
    await client.admin.setConfig("platform_configs", { "ratelimit.per_minute": 1_000_000 });
    const ids = new Map<string, string>();
    for (const f of opts.cases.flatMap((c) => c.files)) {
      if (!ids.has(f.path)) ids.set(f.path, (await client.files.upload(Bun.file(f.path), { filename: f.name, mime: f.mime })).fileId);
    }
    const results: CallResult[] = [];
    for (const c of opts.cases) {
      const fileIds = c.files.map((f) => ids.get(f.path)!);
      const native = () => runNative(c, opts.outDir);
      const r: CallResult = { c, calls: [], backToBack: [], native: [] };
      try {
        // warm-up: the tool's engine loads in the worker, the statements get planned
        for (let i = 0; i < 3; i++) await call(client, c, fileIds);
        await native();
        for (let i = 0; i < opts.runs(c); i++) {
          r.calls.push(await call(client, c, fileIds));
          r.native.push(await native());
        }
        // The same calls with nothing between them: how much of a call the pause before it costs.
        if (c.small) for (let i = 0; i < opts.runs(c); i++) r.backToBack.push(await call(client, c, fileIds));
        const tot = median(r.calls.map((x) => x.totalMs));
        opts.log(`${c.slug} (${c.input}): API ${tot.toFixed(1)} ms (tool ${median(r.calls.map((x) => x.steps.tool ?? NaN)).toFixed(1)} ms, fixed overhead ${median(r.calls.map(overheadOf)).toFixed(1)} ms), native ${median(r.native).toFixed(1)} ms`);
      } catch (err) {
        r.error = (err as Error).message.slice(0, 120);
        opts.log(`${c.slug} (${c.input}) failed: ${r.error}`);
      }
      results.push(r);
    }
    return { results, floor: await signedInFloor(client, opts, results) };
  } finally {
    await server?.stop();
  }
}

/** The case's native program on its files, into a fresh `outDir`; its time in ms. */
function runNative(c: CallCase, outDir: string): Promise<number> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir);
  return timeCommand(c.native.argv(c.files.map((f) => f.path), outDir), { env: { GDAL_NUM_THREADS: "1", OMP_NUM_THREADS: "1" } });
}

/** SignedInFloor on `client`'s server: each request after the first small case's native program, then back to back. */
async function signedInFloor(client: VektorClient, opts: { outDir: string }, results: CallResult[]): Promise<SignedInFloor> {
  const small = results.filter((r) => r.c.small && !r.error);
  const floor: SignedInFloor = { afterNative: [], backToBack: [] };
  if (small.length === 0) return floor;
  const n = small.reduce((sum, r) => sum + r.calls.length, 0);
  const c = small[0].c;
  const request = async () => {
    const t0 = performance.now();
    const res = await client.t.fetch("/api/files?limit=1");
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /api/files answered ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 3; i++) await request();
  for (let i = 0; i < n; i++) {
    await runNative(c, opts.outDir);
    floor.afterNative.push(await request());
  }
  for (let i = 0; i < n; i++) floor.backToBack.push(await request());
  return floor;
}

/** The table rows of one database's results: medians of each step, the call, its fixed overhead and the native run. */
export function callRows(db: string, results: CallResult[]): { rows: (string | number)[][]; pass: boolean } {
  let pass = true;
  const rows = results.map((r) => {
    if (r.error) {
      pass = false;
      return [db, r.c.slug, r.c.input, ...STEPS.map(() => "-"), "-", "-", "-", "-", "-", "-", "-", `ERROR ${r.error.slice(0, 60)}`];
    }
    const med = (f: (x: Call) => number) => median(r.calls.map(f));
    // The tool's whole run is a step even where part of it ran under earlier ones (overlap).
    const stepSum = (x: Call) => STEPS.reduce((s, k) => s + (x.steps[k] ?? 0), 0) - (x.steps.overlap ?? 0);
    const total = med((x) => x.totalMs);
    const nat = median(r.native);
    const ratio = total / nat;
    const overhead = med(overheadOf);
    const target = r.c.small ? `overhead <= ${db === "PGlite" ? 5 : 8} ms` : `<= ${r.c.target}x`;
    const ok = r.c.small ? overhead <= (db === "PGlite" ? 5 : 8) : ratio <= r.c.target;
    pass &&= ok;
    return [
      db,
      r.c.slug,
      r.c.input,
      ...STEPS.map((k) => med((x) => x.steps[k] ?? 0).toFixed(2)),
      med((x) => x.steps.overlap ?? 0).toFixed(2),
      med((x) => x.totalMs - stepSum(x)).toFixed(2),
      total.toFixed(1),
      overhead.toFixed(1),
      nat.toFixed(1),
      `${ratio.toFixed(2)}x`,
      target,
      ok ? "PASS" : "MISS",
    ];
  });
  return { rows, pass };
}

export const CALL_HEADERS = ["db", "tool", "input", ...STEPS.map((s) => `${s} ms`), "overlap ms", "wire ms", "API ms", "fixed overhead ms", "native ms", "API / native", "target", "result"];
