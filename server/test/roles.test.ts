/**
 * Scale-out: a ROLE=api process (no tool workers) and a ROLE=worker process (no HTTP) share one
 * PostgreSQL server; the API queues a batch and the worker process runs it. PGlite is one
 * process by nature, so this runs in the PostgreSQL pass of `npm test` (TEST_DATABASE_URL).
 */
import { VektorClient } from "@vektor/shared/client";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { freePort, freshDatabase, PASSWORD } from "./harness";
import { makePdf } from "./fixtures";

const procs: ReturnType<typeof Bun.spawn>[] = [];
const dirs: string[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const p of procs) p.kill("SIGKILL");
  await Promise.all(procs.map((p) => p.exited));
  for (const drop of drops) await drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function spawn(env: Record<string, string>) {
  const p = Bun.spawn([process.execPath, join(import.meta.dir, "..", "src", "main.ts")], { env: { ...process.env, ...env }, stdout: "ignore", stderr: "inherit" });
  procs.push(p);
  return p;
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("ROLE=api + ROLE=worker on one PostgreSQL", () => {
  test("the API process queues, the worker process runs, the API reports it done", async () => {
    const db = await freshDatabase(process.env.TEST_DATABASE_URL!);
    drops.push(db.drop);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const shared = { DATABASE_URL: db.url, LOG_LEVEL: "warn", JOB_POLL_MS: "100", BETTER_AUTH_SECRET: "roles-test-secret-roles-test-secret-0123456789" };
    // Objects must be shared too: both processes point at one directory (an S3 bucket in production).
    const dataDir = mkdtempSync(join(tmpdir(), "vektor-roles-"));
    dirs.push(dataDir);
    spawn({ ...shared, ROLE: "api", HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir });
    for (let i = 0; i < 300 && !(await fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false)); i++) await Bun.sleep(100);
    const c = new VektorClient({ baseUrl: base });
    await c.auth.signUp({ name: "roles", email: "roles@example.test", password: PASSWORD });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await c.files.upload(new Blob([await makePdf(1, `r${i}`)]), { filename: `r${i}.pdf`, mime: "application/pdf" })).fileId);
    const { batchId } = await c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.rotate", fileIds: ids });
    await Bun.sleep(800);
    expect((await c.t.call<{ batch: { done: number; status: string } }>("GET", `/api/batch/${batchId}`)).batch).toMatchObject({ done: 0, status: "queued" });

    spawn({ ...shared, ROLE: "worker", TOOL_WORKERS: "2", DATA_DIR: dataDir });
    let status = "";
    for (let i = 0; i < 300 && status !== "completed"; i++) {
      status = (await c.t.call<{ batch: { status: string } }>("GET", `/api/batch/${batchId}`)).batch.status;
      await Bun.sleep(100);
    }
    expect(status).toBe("completed");
    expect((await c.t.call<{ batch: { done: number } }>("GET", `/api/batch/${batchId}`)).batch.done).toBe(3);
  }, 120_000);

  // What the README tells an operator whose PostgreSQL runs on the same host (DATABASE_URL).
  test("a server reaches PostgreSQL over its Unix socket: postgres:/// with PGHOST, PGPORT and PGUSER", async () => {
    const db = await freshDatabase(process.env.TEST_DATABASE_URL!);
    drops.push(db.drop);
    const url = new URL(db.url);
    const name = url.pathname.slice(1);
    const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      const [{ dir }] = await admin<{ dir: string }[]>`select split_part(current_setting('unix_socket_directories'), ',', 1) as dir`;
      const port = await freePort();
      const dataDir = mkdtempSync(join(tmpdir(), "vektor-socket-"));
      dirs.push(dataDir);
      const socketEnv = { DATABASE_URL: `postgres:///${name}`, PGHOST: dir.trim(), PGPORT: url.port || "5432", PGUSER: decodeURIComponent(url.username) };
      spawn({ ...socketEnv, LOG_LEVEL: "warn", HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, TOOL_WORKERS: "1" });
      // A fresh database migrates first: ample time for a slow, busy machine.
      let ready = false;
      for (const deadline = Date.now() + 120_000; !ready && Date.now() < deadline; ) {
        ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then((r) => r.ok).catch(() => false);
        if (!ready) await Bun.sleep(100);
      }
      expect(ready).toBe(true);
      // A connection over a Unix socket has no client address.
      const [{ local, tcp }] = await admin<{ local: number; tcp: number }[]>`
        select count(*) filter (where client_addr is null)::int as local, count(*) filter (where client_addr is not null)::int as tcp
        from pg_stat_activity where datname = ${name} and backend_type = 'client backend'`;
      expect(local).toBeGreaterThan(0);
      expect(tcp).toBe(0);
    } finally {
      await admin.end();
    }
  }, 180_000);
});
