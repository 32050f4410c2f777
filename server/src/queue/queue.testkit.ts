/**
 * What the queue tests share: a real database (PGlite in a temp dir, or a fresh database on the
 * PostgreSQL server named by TEST_DATABASE_URL), a real object store, a complete handler set
 * built from the test's own handlers, real runners that are stopped after each test, and
 * polling with a generous deadline (no assertion depends on this machine's speed).
 * Not a test file itself.
 */
import { isTerminalJob } from "@vektor/shared/schemas/vocab";
import { eq, sql } from "drizzle-orm";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshDatabase } from "../db/test-database";
import { copyPgliteTemplate } from "../db/pglite-template";
import { openDatabase, type Database, type Db } from "../db/client";
import { file, job, user } from "../db/schema";
import { newId } from "../lib/ids";
import { createLogger, type Logger } from "../log";
import type { JobRow } from "./kinds";
import { LocalStore } from "../storage/local";
import { JobHandlers, type AnyHandler, type ControlHandler, type ToolRunHandler } from "./registry";
import { enqueue } from "./enqueue";
import { JOB_KINDS, type ControlKind } from "./kinds";
import { WorkerPool } from "../tools/pool";
import { ToolRun, type ToolRunOptions } from "../tools/tool-run";
import { JobRunner, type RunnerOptions } from "./runner";

export type { ControlKind };

/** The first set-up in a test process makes the PGlite template (an initdb: seconds, far more on a loaded machine): it gets its own timeout. */
export const SETUP_TIMEOUT = 180_000;
export const log = createLogger("silent");

export interface TestQueue {
  db: Db;
  store: LocalStore;
  dir: string;
  listen: Database["listen"];
  maintain: Database["maintain"];
  close(): Promise<void>;
}

/** A migrated database and an object store, both new; PostgreSQL when TEST_DATABASE_URL is set. */
export async function openTestQueue(): Promise<TestQueue> {
  const dir = mkdtempSync(join(tmpdir(), "vektor-queue-"));
  const pg = process.env.TEST_DATABASE_URL ? await freshDatabase(process.env.TEST_DATABASE_URL) : null;
  const sharedBuffers = "8MB";
  if (!pg) await copyPgliteTemplate(dir, sharedBuffers);
  const database = await openDatabase({ databaseUrl: pg?.url ?? null, dataDir: dir, pgliteSharedBuffers: sharedBuffers });
  return {
    db: database.db,
    store: new LocalStore(join(dir, "objects")),
    dir,
    listen: (channel, fn) => database.listen(channel, fn),
    maintain: () => database.maintain(),
    async close() {
      await database.close();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A control handler that does nothing, with one try. */
export function noopControl<K extends ControlKind>(kind: K): ControlHandler<K> {
  return { kind, retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 }, run: async () => {} };
}

export const noopTool: ToolRunHandler = { kind: "tool.run", maxAttempts: 3, onSettled: async () => {} };

/** The test's handlers, the other kinds filled with no-ops so the registry accepts the set. */
export function handlerSet(...own: AnyHandler[]): JobHandlers {
  const given = new Set(own.map((h) => h.kind));
  const rest = JOB_KINDS.filter((k) => !given.has(k)).map((k): AnyHandler => (k === "tool.run" ? noopTool : noopControl(k)));
  return new JobHandlers([...own, ...rest]);
}

const live: { runner: JobRunner; pool: WorkerPool }[] = [];

/** A real runner over `pool` (none: a pool of size 0, so no tool lane), stopped by stopRunners(). */
export function makeRunner(
  q: TestQueue,
  handlers: JobHandlers,
  opts: Partial<RunnerOptions> & Partial<ToolRunOptions> & { pool?: WorkerPool; limits?: { perUser: number; global: number }; log?: Logger } = {},
): JobRunner {
  const { pool = new WorkerPool(0, log), limits = { perUser: 100, global: 0 }, log: runnerLog = log, timeoutMs = 600_000, maxInputBytes = 1 << 30, scratchDir, hostFilesFrom, ...rest } = opts;
  const toolRun = new ToolRun(q.db, q.store, pool, handlers.tool, { timeoutMs, maxInputBytes, scratchDir, hostFilesFrom });
  const runner = new JobRunner(q.db, runnerLog, { leaseMs: 30_000, pollMs: 50, controlLanes: 1, toolLanes: pool.size, ...rest }, handlers, { "tool.run": toolRun }, async () => limits);
  live.push({ runner, pool });
  return runner;
}

/** Stops every runner of the test and closes its pool (closing ends a tool run still in flight). */
export async function stopRunners(): Promise<void> {
  for (const { runner, pool } of live.splice(0)) await Promise.all([runner.stop(), pool.close()]);
}

/** An empty queue and no files, so one test's jobs never reach the next test's runner. */
export async function clearQueue(db: Db): Promise<void> {
  await db.delete(job);
  await db.delete(file);
}

export async function insertUser(db: Db): Promise<string> {
  const id = newId("u");
  await db.insert(user).values({ id, name: "queue test", email: `${id}@example.test` });
  return id;
}

/** A PDF of `pages` pages, stored and recorded as the user's UPLOADED file. */
export async function uploadPdf(q: TestQueue, userId: string, pages: number): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`page ${i + 1}`, { x: 50, y: 780, size: 18, font });
  const bytes = await doc.save();
  const id = newId("f");
  const storageKey = `u/${userId}/${id}`;
  const put = await q.store.put(storageKey, new Response(bytes as Uint8Array<ArrayBuffer>).body!);
  await q.db.insert(file).values({ id, userId, filename: "in.pdf", mime: "application/pdf", size: put.size, checksum: put.sha256, status: "UPLOADED", format: "pdf", storageKey, uploadedAt: new Date() });
  return id;
}

/** A queued tool.run job, as the jobs service queues one (not admitted: a test may queue what admission would refuse). */
export async function insertToolJob(db: Db, v: { userId: string; type: string; params?: Record<string, unknown>; inputFileIds?: string[] }): Promise<string> {
  return (await enqueue(db, { kind: "tool.run", userId: v.userId, tool: { slug: v.type, params: v.params ?? {}, inputFileIds: v.inputFileIds ?? [] }, origin: "api" }))!;
}

export async function jobRow(db: Db, id: string): Promise<JobRow> {
  const [row] = await db.select().from(job).where(eq(job.id, id));
  if (!row) throw new Error(`job ${id} is gone`);
  return row;
}

/** Jobs whose data carries `marker` (what a test's hook enqueued). */
export async function countMarked(db: Db, marker: string): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(job).where(sql`${job.data}->>'runId' = ${marker}`);
  return r.n;
}

/** A logger at `level` whose lines (parsed) land in the returned array, for tests of what is logged. */
export function capturedLog(level = "info"): { log: Logger; lines: Record<string, unknown>[]; raw: string[] } {
  const raw: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const log = createLogger(level, {
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  return { log, lines, raw };
}

/** Polls `probe` until it returns a value other than null/undefined/false; fails after a generous deadline. */
export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 50_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await Bun.sleep(25)) {
    const v = await probe();
    if (v !== null && v !== undefined && v !== false) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Polls until the job has `status`; returns its row. Fails at once if the job ended otherwise. */
export function waitForStatus(db: Db, id: string, status: string, timeoutMs?: number): Promise<JobRow> {
  return waitFor(
    `job ${id} to be ${status}`,
    async () => {
      const row = await jobRow(db, id);
      if (row.status !== status && isTerminalJob(row.status)) throw new Error(`job ${id} ended ${row.status} (${row.errorCode}: ${row.errorMessage}), not ${status}`);
      return row.status === status && row;
    },
    timeoutMs,
  );
}

/** A promise with its resolver outside (a handler that waits until the test lets it go). */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}
