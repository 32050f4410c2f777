/**
 * Starts a real server for an integration test file: a loopback port, a fresh DATA_DIR, and
 * either PGlite or, when TEST_DATABASE_URL is set, a fresh database on that Postgres server.
 */
import { VektorClient } from "@vektor/shared/client";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type Running } from "../src/boot";
import { copyPgliteTemplate } from "../src/db/pglite-template";
import { readEnv } from "../src/env";

export const ADMIN_EMAIL = "admin@example.test";
export const PASSWORD = "correct horse battery";

export async function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, host, () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export { freshDatabase } from "../src/db/test-database";
export { waitFor } from "@vektor/shared/testing";
import { freshDatabase } from "../src/db/test-database";

export interface TestServer extends Running {
  dataDir: string;
  /** A client with no credentials. */
  anon(): VektorClient;
  /** A signed-up, signed-in user (a new e-mail each call unless given). */
  user(email?: string): Promise<VektorClient & { email: string }>;
  admin(): Promise<VektorClient & { email: string }>;
  close(): Promise<void>;
}

let counter = 0;

export async function startTestServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "vektor-test-"));
  const port = await freePort();
  const db = process.env.TEST_DATABASE_URL ? await freshDatabase(process.env.TEST_DATABASE_URL) : null;
  const env = readEnv({
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_EMAILS: ADMIN_EMAIL,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    // Test servers start by the hundred and do not measure speed: no warm-up unless a test asks.
    WARM_UP_CALLS: "0",
    WARM_UP_REQUESTS: "0",
    ...(db ? { DATABASE_URL: db.url } : {}),
    ...extraEnv,
  });
  // env.dataDir: a test may give its own DATA_DIR (one on a small file system, say).
  if (!env.databaseUrl) await copyPgliteTemplate(env.dataDir, env.pgliteSharedBuffers);
  const running = await startServer(env);
  const anon = () => new VektorClient({ baseUrl: running.url });
  const user = async (email = `user${++counter}-${crypto.randomUUID().slice(0, 8)}@example.test`) => {
    const c = anon();
    await c.auth.signUp({ name: email.split("@")[0], email, password: PASSWORD });
    return Object.assign(c, { email });
  };
  let adminClient: (VektorClient & { email: string }) | null = null;
  return {
    ...running,
    dataDir: env.dataDir,
    anon,
    user,
    admin: async () => (adminClient ??= await user(ADMIN_EMAIL)),
    async close() {
      // No grace: a test's leftover jobs go back to the queue at once instead of holding close up.
      await running.stop(0);
      await db?.drop();
      for (const dir of new Set([dataDir, env.dataDir])) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * For a server started with spawnServer: on the PostgreSQL run, a fresh database written into
 * `env` as DATABASE_URL; on PGlite, the test process's template copied into `env.DATA_DIR`
 * (what the server would otherwise make with an initdb of its own, 8 to 30 s). Returns what drops
 * the database again.
 */
export async function spawnedDatabase(env: Record<string, string>): Promise<() => Promise<void>> {
  if (!process.env.TEST_DATABASE_URL) {
    const { dataDir, pgliteSharedBuffers } = readEnv(env);
    if (env.DATA_DIR) await copyPgliteTemplate(dataDir, pgliteSharedBuffers);
    return async () => {};
  }
  const db = await freshDatabase(process.env.TEST_DATABASE_URL);
  env.DATABASE_URL = db.url;
  return db.drop;
}

/**
 * Starts `server/src/main.ts` as its own process (for tests that kill it) and waits until it
 * answers. On a DATA_DIR without a database (not given by spawnedDatabase) the first start runs
 * PGlite's initdb: the deadline leaves room for that on a slow machine.
 */
export async function spawnServer(env: Record<string, string>, base: string): Promise<ReturnType<typeof Bun.spawn>> {
  const p = Bun.spawn([process.execPath, join(import.meta.dir, "..", "src", "main.ts")], { env: { ...process.env, WARM_UP_CALLS: "0", WARM_UP_REQUESTS: "0", ...env }, stdout: "ignore", stderr: "inherit" });
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    if (await fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false)) return p;
    if (p.exitCode !== null) break;
    await Bun.sleep(100);
  }
  p.kill("SIGKILL");
  throw new Error("server did not start");
}

/** A server process that tests kill with SIGKILL and start again on the same data (see killableServer). */
export interface KillableServer {
  /** Its base URL, known once started. */
  readonly base: string;
  /** Starts the process (the first time on a fresh port and database) and waits until it answers. */
  start(): Promise<void>;
  /** SIGKILL, and waits until the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), and waits until the process is gone; answers its exit code. */
  terminate(): Promise<number>;
  /** PostgreSQL only: one more process on the same database and DATA_DIR, on a port of its own (stopped by close). */
  another(): Promise<{ base: string; terminate(): Promise<number> }>;
  /** Kills it if it runs, drops its database and removes its DATA_DIR (for afterAll). */
  close(): Promise<void>;
}

/**
 * The crash tests' server: spawnServer on a fresh DATA_DIR (and, on the PostgreSQL run, a fresh
 * database), with two tool workers and short leases and polls so that the work of a killed
 * process is taken again within seconds. `env` adds to or overrides those settings.
 */
export function killableServer(name: string, env: Record<string, string> = {}): KillableServer {
  const dataDir = mkdtempSync(join(tmpdir(), `vektor-${name}-`));
  let settings: Record<string, string> | null = null;
  let proc: ReturnType<typeof Bun.spawn> | null = null;
  const others: ReturnType<typeof Bun.spawn>[] = [];
  let dropDb: (() => Promise<void>) | null = null;
  let base = "";
  return {
    get base() {
      return base;
    },
    async start() {
      if (!settings) {
        const port = await freePort();
        base = `http://127.0.0.1:${port}`;
        settings = { HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", TOOL_WORKERS: "2", JOB_LEASE_MS: "1500", JOB_POLL_MS: "100", ...env };
        dropDb = await spawnedDatabase(settings);
      }
      proc = await spawnServer(settings, base);
    },
    async kill() {
      proc?.kill("SIGKILL");
      await proc?.exited;
    },
    async terminate() {
      proc?.kill("SIGTERM");
      return (await proc?.exited) ?? 0;
    },
    async another() {
      if (!settings?.DATABASE_URL) throw new Error("another process shares a PostgreSQL database only (PGlite has one owner)");
      const port = await freePort();
      const otherBase = `http://127.0.0.1:${port}`;
      const p = await spawnServer({ ...settings, PORT: String(port) }, otherBase);
      others.push(p);
      return {
        base: otherBase,
        async terminate() {
          p.kill("SIGTERM");
          return p.exited;
        },
      };
    },
    async close() {
      for (const p of others) p.kill("SIGKILL");
      proc?.kill("SIGKILL");
      await dropDb?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Run `fn`, expecting an ApiError with this code (and status); returns the error. */
export async function expectApiError(fn: () => Promise<unknown>, code: string, status?: number) {
  try {
    await fn();
  } catch (e) {
    const err = e as { code?: string; status?: number; message?: string };
    if (err.code !== code || (status !== undefined && err.status !== status)) {
      throw new Error(`expected ${code}${status ? `/${status}` : ""}, got ${err.code}/${err.status}: ${err.message}`);
    }
    return err;
  }
  throw new Error(`expected ${code}, but the call succeeded`);
}
