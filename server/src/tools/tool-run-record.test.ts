/**
 * A tool job whose hook writes nothing for it (any but a workflow step's) is recorded in one
 * statement (tools/record-success.ts): the success, the output rows in the tool's order and
 * the input's latest output all land; a claim that lost the job to another writes none of them,
 * leaves the other claim's row as it was and deletes the objects it stored.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { file, job } from "../db/schema";
import type { ToolOutcome, ToolRunHandler } from "../queue/registry";
import { clearQueue, insertToolJob, insertUser, jobRow, log, openTestQueue, SETUP_TIMEOUT, uploadPdf, type TestQueue } from "../queue/queue.testkit";
import { WorkerPool } from "./pool";
import { ToolRun } from "./tool-run";
import { recordSuccess } from "./record-success";
import { newId } from "../lib/ids";

let q: TestQueue;
let pool: WorkerPool;
let userId: string;
beforeAll(async () => {
  q = await openTestQueue();
  pool = new WorkerPool(1, log);
}, SETUP_TIMEOUT);
afterAll(async () => {
  await pool?.close();
  await q?.close();
});
beforeEach(async () => {
  await clearQueue(q.db);
  userId = await insertUser(q.db);
});

const TEST_TIMEOUT = 240_000;

/** A hook that says it writes nothing, and remembers whether it was called anyway. */
function quietHook(): ToolRunHandler & { calls: ToolOutcome[] } {
  const calls: ToolOutcome[] = [];
  return { kind: "tool.run", maxAttempts: 3, calls, onSettled: async (_tx, _row, o) => void calls.push(o), writesOnSettled: () => false };
}

/** The job claimed as the runner claims it (running, one attempt more, a lease). */
async function claim(id: string, attempts: number) {
  await q.db.update(job).set({ status: "running", attempts, leaseUntil: new Date(Date.now() + 60_000), startedAt: new Date() }).where(eq(job.id, id));
  return jobRow(q.db, id);
}

const objectsOfUser = () => readdirSync(join(q.dir, "objects", "u", userId)).sort();

describe("recording a tool job in one statement", () => {
  test("the success, its output rows in page order and the input's latest output are written together", async () => {
    const input = await uploadPdf(q, userId, 3);
    const id = await insertToolJob(q.db, { userId, type: "pdf.split", inputFileIds: [input] });
    const hook = quietHook();
    await new ToolRun(q.db, q.store, pool, hook, { timeoutMs: 600_000, maxInputBytes: 1 << 30 }).run(await claim(id, 1), new AbortController().signal);
    const done = await jobRow(q.db, id);
    expect(done).toMatchObject({ status: "succeeded", progress: 100, errorCode: null, leaseUntil: null });
    expect(done.outputFileIds).toHaveLength(3);
    const rows = await q.db.select().from(file).where(eq(file.jobId, id)).orderBy(asc(file.filename));
    expect(rows.map((r) => r.filename)).toEqual(["in-p1.pdf", "in-p2.pdf", "in-p3.pdf"]);
    expect(rows.map((r) => r.id)).toEqual(done.outputFileIds); // the job lists them in the tool's order
    for (const r of rows) expect(r).toMatchObject({ userId, status: "UPLOADED", mime: "application/pdf", sourceFileId: input, format: "pdf" });
    expect(rows.every((r) => r.size > 0 && /^[0-9a-f]{64}$/.test(r.checksum ?? ""))).toBe(true);
    const [source] = await q.db.select().from(file).where(eq(file.id, input));
    expect(source.outFileId).toBe(done.outputFileIds[0]);
    expect(objectsOfUser()).toEqual([input, ...done.outputFileIds].sort());
    expect(hook.calls).toEqual([]);
  }, TEST_TIMEOUT);

  test("a claim that lost the job to another one writes nothing and deletes the objects it stored", async () => {
    const input = await uploadPdf(q, userId, 2);
    const id = await insertToolJob(q.db, { userId, type: "pdf.split", inputFileIds: [input] });
    const stale = await claim(id, 1);
    const current = await claim(id, 2); // another process took the job over meanwhile
    await new ToolRun(q.db, q.store, pool, quietHook(), { timeoutMs: 600_000, maxInputBytes: 1 << 30 }).run(stale, new AbortController().signal);
    const { status, attempts, outputFileIds, finishedAt, leaseUntil, errorCode } = current;
    expect(await jobRow(q.db, id)).toMatchObject({ status, attempts, outputFileIds, finishedAt, leaseUntil, errorCode });
    expect(await q.db.select().from(file).where(eq(file.jobId, id))).toEqual([]);
    const [source] = await q.db.select().from(file).where(eq(file.id, input));
    expect(source.outFileId).toBeNull();
    expect(objectsOfUser()).toEqual([input]);
  }, TEST_TIMEOUT);

  test("answers the ended row as the table holds it: a cancel asked for meanwhile included, a claim's extras left out", async () => {
    const input = await uploadPdf(q, userId, 1);
    const id = await insertToolJob(q.db, { userId, type: "pdf.rotate", params: { degrees: 90, pages: "1" }, inputFileIds: [input] });
    const claimed = { ...(await claim(id, 1)), inputFiles: [], early: undefined };
    await q.db.update(job).set({ cancelRequestedAt: new Date(), progress: 40, leaseUntil: new Date(Date.now() + 120_000) }).where(eq(job.id, id));
    const output = (out = newId("f")) => [{ id: out, userId, filename: "out.pdf", mime: "application/pdf", size: 9, checksum: "0".repeat(64), status: "UPLOADED" as const, format: "pdf", storageKey: `u/${userId}/${out}`, jobId: id, sourceFileId: input, uploadedAt: new Date() }];
    const ended = await recordSuccess(q.db, claimed, output());
    expect(ended?.cancelRequestedAt).toBeInstanceOf(Date);
    const inTable = await jobRow(q.db, id);
    expect(ended).toEqual(inTable);
    expect(Object.keys(ended!).sort()).toEqual(Object.keys(inTable).sort());
    expect(await recordSuccess(q.db, claimed, output())).toBeNull(); // ended already: not this claim's any more
  }, TEST_TIMEOUT);
});
