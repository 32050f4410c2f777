/**
 * The server as production scales it: one ROLE=api process (HTTP only, TOOL_WORKERS=0) and any
 * number of ROLE=worker processes (the job queue only), all on one PostgreSQL and one DATA_DIR,
 * each a child process of its own (`bun server/src/main.ts`) so its CPU and memory can be read
 * from /proc. Loopback only. Every process is killed when the benchmark exits, even on a throw.
 */
import { VektorClient } from "@vektor/shared/client";
import { readdirSync, readFileSync } from "node:fs";
import { REPO } from "./deps";
import { eachLine, freePort } from "./server";

export const PASSWORD = "bench password 123";

export interface Proc {
  pid: number;
  role: string;
  proc: ReturnType<typeof Bun.spawn>;
  stop(): Promise<void>;
}

export interface Cluster {
  url: string;
  api: Proc;
  workers: Proc[];
  adminEmail: string;
  /** Signs up (first call) or signs in the ADMIN_EMAILS account. */
  admin(): Promise<VektorClient>;
  /** Starts `n` more ROLE=worker processes (TOOL_WORKERS each; `env` on top, e.g. JOB_POLL_MS) and waits until they run. */
  addWorkers(n: number, toolWorkers?: number, env?: Record<string, string>): Promise<Proc[]>;
  stopWorkers(): Promise<void>;
  stop(): Promise<void>;
}

const live = new Set<ReturnType<typeof Bun.spawn>>();
process.once("exit", () => {
  for (const p of live) p.kill("SIGKILL");
});

/** Lines of a child's stdout/stderr: server logs go to our stderr, prefixed; `onLine` sees each line. */
function pump(stream: ReadableStream<Uint8Array>, tag: string, onLine: (line: string) => void): Promise<void> {
  return eachLine(stream, (line) => {
    onLine(line);
    if (line && !/^Vektor (worker )?is running/.test(line)) process.stderr.write(`[${tag}] ${line}\n`);
  });
}

function spawn(role: string, env: Record<string, string>, ready: (line: string) => boolean): { p: Proc; started: Promise<void> } {
  // BENCH_SERVER_PROF=<dir>: each process writes its CPU profile there when it stops (as bench/lib/server.ts)
  const prof = process.env.BENCH_SERVER_PROF ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_SERVER_PROF}`, `--cpu-prof-name=${role}.cpuprofile`] : [];
  const proc = Bun.spawn([process.execPath, ...prof, process.env.BENCH_SERVER_ENTRY ?? "server/src/main.ts"], { cwd: REPO, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  live.add(proc);
  let markReady!: () => void;
  const started = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    void proc.exited.then((code) => reject(new Error(`${role} process exited with code ${code} while starting`)));
  });
  const onLine = (line: string) => ready(line) && markReady();
  void pump(proc.stdout as ReadableStream<Uint8Array>, role, onLine);
  void pump(proc.stderr as ReadableStream<Uint8Array>, role, () => {});
  const p: Proc = {
    pid: proc.pid,
    role,
    proc,
    async stop() {
      proc.kill("SIGTERM"); // main.ts stops gracefully: finishes the running job, closes the database
      const done = await Promise.race([proc.exited.then(() => true), Bun.sleep(15_000).then(() => false)]);
      if (!done) proc.kill("SIGKILL");
      await proc.exited;
      live.delete(proc);
    },
  };
  return { p, started };
}

export async function startCluster(opts: { dataDir: string; databaseUrl: string; env?: Record<string, string> }): Promise<Cluster> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const adminEmail = `bench-admin-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const common: Record<string, string> = {
    HOST: "127.0.0.1",
    PUBLIC_URL: url,
    DATA_DIR: opts.dataDir,
    DATABASE_URL: opts.databaseUrl,
    ADMIN_EMAILS: adminEmail,
    // shared by every process: sessions and signed URLs must verify in each
    BETTER_AUTH_SECRET: `bench-${crypto.randomUUID()}-${crypto.randomUUID()}`,
    LOG_LEVEL: "warn",
    ...opts.env,
  };
  const { p: api, started } = spawn("api", { ...common, PORT: String(port), ROLE: "api", TOOL_WORKERS: "0" }, (line) => line.startsWith("Vektor is running"));
  await started;
  for (let i = 0; ; i++) {
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) break;
    if (i > 300) throw new Error("the API did not answer /api/health");
    await Bun.sleep(100);
  }
  const workers: Proc[] = [];
  let client: VektorClient | null = null;
  const cluster: Cluster = {
    url,
    api,
    workers,
    adminEmail,
    async admin() {
      if (client) return client;
      const c = new VektorClient({ baseUrl: url });
      await c.auth.signUp({ name: "bench", email: adminEmail, password: PASSWORD });
      return (client = c);
    },
    async addWorkers(n, toolWorkers = 1, env = {}) {
      const made = Array.from({ length: n }, (_, i) =>
        spawn(`worker${workers.length + i + 1}`, { ...common, ...env, PORT: "0", ROLE: "worker", TOOL_WORKERS: String(toolWorkers) }, (line) => line.startsWith("Vektor worker is running")),
      );
      await Promise.all(made.map((m) => m.started));
      workers.push(...made.map((m) => m.p));
      return made.map((m) => m.p);
    },
    async stopWorkers() {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
    },
    async stop() {
      await cluster.stopWorkers();
      await api.stop();
    },
  };
  return cluster;
}

/** The fields of a /proc stat file after the command name: [11] utime, [12] stime, [13] cutime, [14] cstime, in ticks of 10 ms. */
function statFields(path: string): number[] {
  return readFileSync(path, "utf8").split(") ")[1].split(" ").map(Number);
}

/** CPU seconds (user + system) a process has used so far, with its reaped children. */
export function cpuSeconds(pid: number): number {
  try {
    const f = statFields(`/proc/${pid}/stat`);
    return (f[11] + f[12] + f[13] + f[14]) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of a process and its live children (the PostgreSQL postmaster and its backends). */
export function treeCpuSeconds(rootPid: number): number {
  let total = cpuSeconds(rootPid);
  try {
    for (const child of readFileSync(`/proc/${rootPid}/task/${rootPid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) total += cpuSeconds(Number(child));
  } catch {
    // no children file: the root's own time only
  }
  return total;
}

/** CPU seconds of each of a process's threads so far, summed by thread name (/proc/<pid>/task/<tid>/comm). */
export function threadCpuSeconds(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim().replace(/\d+$/, "#");
        const f = statFields(`/proc/${pid}/task/${tid}/stat`);
        out[name] = (out[name] ?? 0) + (f[11] + f[12]) / 100;
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    // the process ended
  }
  return out;
}
