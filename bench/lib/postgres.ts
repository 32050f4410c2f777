/**
 * A throwaway PostgreSQL cluster on a loopback port for benchmarks that run several server
 * processes (PGlite is one process's file). The same recipe as scripts/test.ts: Debian's
 * postgresql (installed with apt-get when missing), initdb + pg_ctl as the postgres user,
 * durability off (fsync, synchronous_commit, full_page_writes) since nothing here must survive,
 * and pg_stat_statements loaded so a benchmark can count the queries a step made.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aptInstall } from "./native";
import { postgres } from "./deps";
import { freePort } from "./server";

function postgresBin(): string | null {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], "bin") : null;
}

export interface BenchPostgres {
  url: string;
  /** The postmaster's pid: every backend is its child (for CPU accounting). */
  pid: number;
  /** pg_stat_statements is loaded and created. */
  statements: boolean;
  /** An SQL client for the benchmark's own reads (timings from job rows, statement counts). */
  sql: ReturnType<typeof postgres>;
  /** The server's log file (removed with the cluster). */
  log: string;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<BenchPostgres> {
  if (!postgresBin()) aptInstall(["postgresql"]);
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed and apt-get could not install it");
  const dir = mkdtempSync(join(tmpdir(), "vektor-bench-pg-"));
  const asPg = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  if (asPg.length) spawnSync("chown", ["-R", "postgres:postgres", dir]);
  const run = (cmd: string, args: string[]) => spawnSync(asPg[0] ?? cmd, asPg.length ? [...asPg.slice(1), cmd, ...args] : args, { stdio: ["ignore", "ignore", "inherit"] });
  const data = join(dir, "data");
  const port = await freePort();
  if (run(join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]).status !== 0) throw new Error("initdb failed");
  const opts = [
    `-h 127.0.0.1 -p ${port} -k ${dir}`,
    "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300",
    "-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all",
    // More settings for one run, e.g. auto_explain to see the plans a benchmark's statements get.
    process.env.BENCH_PG_OPTS ?? "",
  ].join(" ");
  let stopped = false;
  /** Synchronous, so it also works from an "exit" handler (a benchmark that throws leaves no cluster behind). */
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    run(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "stop"]);
    rmSync(dir, { recursive: true, force: true });
  };
  const stop = async () => {
    await sql?.end({ timeout: 2 }).catch(() => {});
    stopNow();
    process.off("exit", stopNow);
  };
  process.once("exit", stopNow);
  let sql: ReturnType<typeof postgres> | undefined;
  if (run(join(bin, "pg_ctl"), ["-D", data, "-l", join(dir, "log"), "-o", opts, "-w", "start"]).status !== 0) {
    await stop();
    throw new Error("pg_ctl start failed");
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  sql = postgres(url, { max: 2, onnotice: () => {} });
  let statements = true;
  await sql.unsafe("create extension if not exists pg_stat_statements").catch(() => (statements = false));
  const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  return { url, pid, statements, sql, log: join(dir, "log"), stop };
}
