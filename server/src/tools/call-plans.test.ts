/**
 * The statements every tool job runs (its admitted insert, its claim when it waited, its recorded
 * success) find its input files by primary key, never by reading the whole file table, so a call
 * costs the same on a server that keeps many files; the insert asks the queue and the limits once;
 * the claim index holds live jobs only, and a claim reads it in its order, however deep the queue;
 * and the jobs list reads a page of rows for a page, even through a batch's items. Counted with
 * the transaction's own statistics (db/scans.testkit.ts).
 */
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { resultRows, type Db } from "../db/client";
import { scansOf as scansOfTable } from "../db/scans.testkit";
import { file } from "../db/schema";
import { newId } from "../lib/ids";
import { ConfigService } from "../config/service";
import { ToolRunService } from "../modules/tool-runs/service";
import { claimJobs, QUEUED } from "../queue/claim";
import { enqueueAdmitted, enqueueAll, type EnqueueTool } from "../queue/enqueue";
import { clearQueue, insertUser, openTestQueue, SETUP_TIMEOUT, uploadPdf, type TestQueue } from "../queue/queue.testkit";
import { recordSuccess, type StoredFile } from "./record-success";
import { filesByIds } from "../workflows/step-files";

let q: TestQueue;
beforeAll(async () => void (q = await openTestQueue()), SETUP_TIMEOUT);
afterAll(() => q?.close());
beforeEach(() => clearQueue(q.db));

const LEASE = { perUser: 0, global: 0, leaseMs: 60_000 };

/** The scans of `table` that `statements` made, in a transaction rolled back after them. */
const scansOf = (table: "file" | "job", statements: (t: Db) => Promise<void>) => scansOfTable(q.db, table, statements);

/**
 * A user with `n` files besides the 1-page PDF a call runs on, and fresh statistics, as on a server
 * in use; `stale`: the statistics were taken before those files came (PGlite analyses only with
 * the retention sweep, every 10 minutes).
 */
async function manyFiles(n: number, opts: { stale?: boolean } = {}): Promise<{ userId: string; input: string }> {
  const userId = await insertUser(q.db);
  const input = await uploadPdf(q, userId, 1);
  if (opts.stale) await q.db.execute(sql`analyze file`);
  const rows = Array.from({ length: n }, (_, i) => ({ id: newId("f"), userId, filename: `f${i}.pdf`, mime: "application/pdf", size: 100, status: "UPLOADED" as const, storageKey: `k/${i}`, uploadedAt: new Date() }));
  for (let i = 0; i < n; i += 2000) await q.db.insert(file).values(rows.slice(i, i + 2000));
  if (!opts.stale) await q.db.execute(sql`analyze file`);
  return { userId, input };
}

const rotate = (userId: string, input: string): EnqueueTool => ({ kind: "tool.run", userId, tool: { slug: "pdf.rotate", params: { degrees: 90 }, inputFileIds: [input] }, origin: "api" });

function output(userId: string, jobId: string, input: string): StoredFile {
  const id = newId("f");
  return { id, userId, filename: "out.pdf", mime: "application/pdf", size: 1, checksum: "0", status: "UPLOADED", format: "pdf", storageKey: `k/${id}`, jobId, sourceFileId: input, uploadedAt: new Date() };
}

test("a call inserted claimed and its success: the file table is read by index only", async () => {
  const { userId, input } = await manyFiles(20_000);
  const scans = await scansOf("file", async (t) => {
    const admitted = await enqueueAdmitted(t, rotate(userId, input), Infinity, LEASE);
    expect(admitted?.row.status).toBe("running");
    expect(await recordSuccess(t, admitted!.row, [output(userId, admitted!.row.id, input)])).not.toBeNull();
  });
  expect(scans.seq).toBe(0);
  expect(scans.idx).toBeGreaterThanOrEqual(2);
  // The input's row, once or twice, and the output's: not the user's 20,000 others.
  expect(scans.rows).toBeLessThanOrEqual(5);
});

test("the same with statistics taken before the user's files came: not a walk through all of them", async () => {
  const { userId, input } = await manyFiles(2_000, { stale: true });
  const scans = await scansOf("file", async (t) => {
    const admitted = await enqueueAdmitted(t, rotate(userId, input), Infinity, LEASE);
    expect(await recordSuccess(t, admitted!.row, [output(userId, admitted!.row.id, input)])).not.toBeNull();
  });
  expect(scans.seq).toBe(0);
  expect(scans.rows).toBeLessThanOrEqual(5);
});

test("a workflow step's read of its inputs (filesByIds, one statement for any number of ids): by index only", async () => {
  const { userId, input } = await manyFiles(20_000);
  let found: unknown[] = [];
  const scans = await scansOf("file", async (t) => void (found = await filesByIds(t, userId, [input, "f_unknown"])));
  expect(found.map((f) => (f as { id: string }).id)).toEqual([input]);
  expect(scans.seq).toBe(0);
  expect(scans.rows).toBeLessThanOrEqual(2);
});

test("a call's job inserted claimed asks the queue and the limits once each", async () => {
  const { userId, input } = await manyFiles(10);
  const scans = await scansOf("job", async (t) => {
    expect((await enqueueAdmitted(t, rotate(userId, input), Infinity, { ...LEASE, perUser: 2, global: 4 }))?.row.status).toBe("running");
  });
  // Whether a tool job waits, the user's running jobs, all running jobs: not each again for every column that reads the answer.
  expect(scans.seq + scans.idx).toBe(3);
});

test("a job that waited, claimed with its inputs' rows: the file table is read by index only", async () => {
  const { userId, input } = await manyFiles(20_000);
  const scans = await scansOf("file", async (t) => {
    expect((await enqueueAdmitted(t, rotate(userId, input), Infinity, null))?.row.status).toBe("queued");
    // Any queued job, due or not: its run_after (milliseconds) may round up past this transaction's now().
    const claim = await claimJobs(t, sql`c.status = 'queued'`, { lane: "tool", ...LEASE }, 1, true);
    expect(claim.rows[0].inputFiles?.map((f) => f.id)).toEqual([input]);
  });
  expect(scans.seq).toBe(0);
  expect(scans.idx).toBeGreaterThanOrEqual(2);
  // The input's row, once or twice: not the user's 20,000 others.
  expect(scans.rows).toBeLessThanOrEqual(5);
});

test("the claim index holds live jobs only: however many jobs have ended, it stays the size of the queue", async () => {
  const userId = await insertUser(q.db);
  const input = await uploadPdf(q, userId, 1);
  for (let i = 0; i < 1000; i++) {
    const admitted = await enqueueAdmitted(q.db, rotate(userId, input), Infinity, LEASE);
    expect(await recordSuccess(q.db, admitted!.row, [output(userId, admitted!.row.id, input)])).not.toBeNull();
  }
  await q.db.execute(sql`vacuum job`);
  const [index] = resultRows<{ pages: number }>(await q.db.execute(sql`select (pg_relation_size('job_lane_claim_idx') / current_setting('block_size')::int)::int as pages`));
  // 1,000 ended jobs in an index of every job take 6 pages or more (their entries, its root and meta page).
  expect(index.pages).toBeLessThanOrEqual(3);
});

test("with a deep queue after a long history, a claim and a call's insert read the jobs they need, not the queue or the history", async () => {
  const userId = await insertUser(q.db);
  const input = await uploadPdf(q, userId, 1);
  // Jobs that ended, then a batch's items: queued in one statement, so one run_after and one
  // created_at for all, and stored after the history, as on a server in use.
  await enqueueAll(q.db, Array.from({ length: 6000 }, () => rotate(userId, input)));
  await q.db.execute(sql`update job set status = 'succeeded', finished_at = now()`);
  await enqueueAll(q.db, Array.from({ length: 2000 }, (_, position) => ({ ...rotate(userId, input), origin: "batch" as const, batchId: "b_deep", position })));
  await q.db.execute(sql`analyze job`);
  const claimed = await scansOf("job", async (t) => {
    const claim = await claimJobs(t, QUEUED, { lane: "tool", ...LEASE, perUser: 2, global: 4 }, 1, false);
    expect(claim.rows.map((r) => r.position)).toEqual([0]);
    expect(claim.more).toBe(true);
  });
  // The job taken and the two that say more are due: not the 2,000 queued, nor the 6,000 before them.
  expect(claimed.rows).toBeLessThanOrEqual(10);
  const inserted = await scansOf("job", async (t) => {
    expect((await enqueueAdmitted(t, rotate(userId, input), Infinity, { ...LEASE, perUser: 2, global: 4 }))?.row.status).toBe("queued");
  });
  // The first due job (it waits, so the call's job waits behind it), and the running ones the limits count.
  expect(inserted.rows).toBeLessThanOrEqual(10);
}, 60_000);

test("the jobs list pages through a batch's items (one created_at for all) reading a page of rows each", async () => {
  const userId = await insertUser(q.db);
  const input = await uploadPdf(q, userId, 1);
  await enqueueAll(q.db, Array.from({ length: 2000 }, (_, position) => ({ ...rotate(userId, input), origin: "batch" as const, batchId: "b_list", position })));
  await q.db.execute(sql`analyze job`);
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < 3; page++) {
    let next: string | null = null;
    const scans = await scansOf("job", async (t) => {
      const listed = await new ToolRunService(t, new ConfigService(t)).list(userId, 50, cursor);
      expect(listed.items).toHaveLength(50);
      for (const item of listed.items) seen.add(item.jobId);
      next = listed.nextCursor;
    });
    // The page and the one row that says another follows: not the 2,000 that share its created_at.
    expect(scans.rows).toBeLessThanOrEqual(60);
    cursor = next ?? undefined;
  }
  expect(seen.size).toBe(150);
});
