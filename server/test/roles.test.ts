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
import { freePort, freshDatabase, PASSWORD } from "./harness";
import { makePdf } from "./fixtures";

const procs: ReturnType<typeof Bun.spawn>[] = [];
const dirs: string[] = [];
let drop: (() => Promise<void>) | null = null;
afterAll(async () => {
  for (const p of procs) p.kill("SIGKILL");
  await drop?.();
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
    drop = db.drop;
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
});
