/**
 * A tool job inserted already claimed into a lane its process holds (issue 24): it runs there
 * without a claim or a wake-up, and only when a claim would have taken it next anyway: work
 * waiting in the queue goes first, and the per-user and global limits hold. A claim that takes
 * every job there is says so, so a lane does not ask again to find nothing.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { WorkerPool } from "../tools/pool";
import { enqueueAdmitted, type ClaimAtInsert, type EnqueueTool } from "./enqueue";
import { clearQueue, handlerSet, insertToolJob, insertUser, jobRow, log, makeRunner, openTestQueue, SETUP_TIMEOUT, stopRunners, uploadPdf, waitFor, waitForStatus, type TestQueue } from "./queue.testkit";
import type { JobRunner, LaneReservation } from "./runner";
import { isLane } from "./kinds";
import { eq, inArray } from "drizzle-orm";
import { file, job } from "../db/schema";

let q: TestQueue;
beforeAll(async () => void (q = await openTestQueue()), SETUP_TIMEOUT);
afterAll(() => q?.close());
beforeEach(() => clearQueue(q.db));
const unlistens: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const unlisten of unlistens.splice(0)) await unlisten();
  await stopRunners();
});

const rotate = (userId: string, input: string): EnqueueTool => ({ kind: "tool.run", userId, tool: { slug: "pdf.rotate", params: { degrees: 90 }, inputFileIds: [input] }, origin: "api" });
const AT = { perUser: 2, global: 0, leaseMs: 30_000 };

/** Inserts the job admitted (no size limit) and claimed if it may be; its row. */
async function insertClaimed(e: EnqueueTool, at: ClaimAtInsert) {
  const admitted = await enqueueAdmitted(q.db, e, Infinity, at);
  if (!admitted) throw new Error("the job's inputs were refused");
  return admitted.row;
}

/**
 * A started runner with one tool lane, woken by the queue's notifications as boot.ts wires it,
 * whose first claims are over (it sleeps under a minute-long poll), and that lane, held.
 */
async function idleRunner(): Promise<{ runner: JobRunner; lane: LaneReservation }> {
  const runner = makeRunner(q, handlerSet(), { pool: new WorkerPool(1, log), pollMs: 60_000 });
  unlistens.push(await q.listen("vektor_jobs", (l) => runner.poke(isLane(l) ? l : undefined)));
  runner.start();
  const lane = await waitFor("the first claims over and the lane free", async () => runner.claims.tool >= 1 && runner.reserveToolLane());
  return { runner, lane };
}

describe("a tool job inserted claimed", () => {
  test("runs in the lane held for it to the end: no claim statement, neither for its insert nor after its end", async () => {
    const userId = await insertUser(q.db);
    const input = await uploadPdf(q, userId, 2);
    const { runner, lane } = await idleRunner();
    expect(runner.reserveToolLane()).toBeNull();
    const claimsBefore = runner.claims.tool;
    const row = await insertClaimed(rotate(userId, input), { ...AT, leaseMs: lane.leaseMs });
    expect(row).toMatchObject({ status: "running", attempts: 1 });
    expect(row.leaseUntil).toBeInstanceOf(Date);
    expect(row.startedAt).toBeInstanceOf(Date);
    lane.run(row);
    expect((await waitForStatus(q.db, row.id, "succeeded")).outputFileIds).toHaveLength(1);
    await Bun.sleep(300); // room for a claim a wake-up or the lane's end would set off
    expect(runner.claims.tool).toBe(claimsBefore);
    // The lane is free again: the next job is held the same way.
    const next = await waitFor("the lane free again", async () => runner.reserveToolLane());
    next.release();
  });

  test("waits its turn behind a due queued job; a runner whose lanes are about to claim holds none", async () => {
    const userId = await insertUser(q.db);
    const input = await uploadPdf(q, userId, 1);
    const waiting = await insertToolJob(q.db, { userId, type: "pdf.rotate", inputFileIds: [input] });
    const row = await insertClaimed(rotate(userId, input), AT);
    expect(row).toMatchObject({ status: "queued", attempts: 0, leaseUntil: null, startedAt: null });
    const runner = makeRunner(q, handlerSet(), { pool: new WorkerPool(1, log), pollMs: 60_000 });
    expect(runner.reserveToolLane()).toBeNull();
    runner.start();
    await waitForStatus(q.db, waiting, "succeeded");
    await waitForStatus(q.db, row.id, "succeeded");
  });

  test("keeps the per-user and the global limit: over either, the job is queued", async () => {
    const [busy, other] = [await insertUser(q.db), await insertUser(q.db)];
    const input = await uploadPdf(q, busy, 1);
    expect((await insertClaimed(rotate(busy, input), { ...AT, perUser: 1 })).status).toBe("running");
    expect((await insertClaimed(rotate(busy, input), { ...AT, perUser: 1 })).status).toBe("queued");
    await clearQueue(q.db);
    const [again, theirs] = [await uploadPdf(q, busy, 1), await uploadPdf(q, other, 1)];
    expect((await insertClaimed(rotate(busy, again), { ...AT, global: 1 })).status).toBe("running");
    expect((await insertClaimed(rotate(other, theirs), { ...AT, global: 1 })).status).toBe("queued");
  });

  test("a lane given back takes the work that came meanwhile", async () => {
    const userId = await insertUser(q.db);
    const input = await uploadPdf(q, userId, 1);
    const { lane } = await idleRunner();
    const queued = await insertToolJob(q.db, { userId, type: "pdf.rotate", inputFileIds: [input] });
    await Bun.sleep(200);
    expect((await jobRow(q.db, queued)).status).toBe("queued");
    lane.release();
    await waitForStatus(q.db, queued, "succeeded");
  });
});

describe("a tool job inserted with its inputs' admission", () => {
  test("is inserted only when every input is the user's own UPLOADED file within the limit, and brings their rows", async () => {
    const [owner, stranger] = [await insertUser(q.db), await insertUser(q.db)];
    const [a, b] = [await uploadPdf(q, owner, 1), await uploadPdf(q, owner, 2)];
    const theirs = await uploadPdf(q, stranger, 1);
    const two = (ids: string[]): EnqueueTool => ({ kind: "tool.run", userId: owner, tool: { slug: "pdf.merge", params: {}, inputFileIds: ids }, origin: "api" });
    const admitted = await enqueueAdmitted(q.db, two([a, b]), Infinity, null);
    expect(admitted?.row).toMatchObject({ status: "queued", inputFileIds: [a, b], attempts: 0, leaseUntil: null });
    const rows = admitted!.inputFiles.toSorted((x, y) => (x.id < y.id ? -1 : 1));
    const expected = (await q.db.select().from(file).where(inArray(file.id, [a, b]))).map((f) => ({ id: f.id, status: f.status, filename: f.filename, size: f.size, mime: f.mime, storageKey: f.storageKey }));
    expect(rows).toEqual(expected.toSorted((x, y) => (x.id < y.id ? -1 : 1)));
    const before = await q.db.$count(job);
    const [size] = (await q.db.select({ size: file.size }).from(file).where(eq(file.id, b))).map((r) => r.size);
    expect(await enqueueAdmitted(q.db, two([a, theirs]), Infinity, null)).toBeNull();
    expect(await enqueueAdmitted(q.db, two([a, "file_missing"]), Infinity, null)).toBeNull();
    expect(await enqueueAdmitted(q.db, two([a, b]), size - 1, AT)).toBeNull();
    await q.db.update(file).set({ status: "PENDING" }).where(eq(file.id, b));
    expect(await enqueueAdmitted(q.db, two([a, b]), Infinity, AT)).toBeNull();
    expect(await q.db.$count(job)).toBe(before);
    await q.db.update(file).set({ status: "UPLOADED" }).where(eq(file.id, b));
    expect((await enqueueAdmitted(q.db, two([a, b]), size, null))?.row.status).toBe("queued");
  });
});

describe("the row a tool job's insert answers", () => {
  test("is the row as the table holds it: claimed, queued, and a workflow step's with its data", async () => {
    const userId = await insertUser(q.db);
    const input = await uploadPdf(q, userId, 1);
    const params = { pages: "1-2", degrees: 180, keep: [1, { a: null }] };
    const step: EnqueueTool = { ...rotate(userId, input), tool: { slug: "pdf.rotate", params, inputFileIds: [input] }, origin: "workflow", data: { runId: "run_1", stepId: "step_1" } };
    const batchItem: EnqueueTool = { ...rotate(userId, input), origin: "batch", batchId: "batch_1", position: 3 };
    for (const [e, at] of [[rotate(userId, input), AT], [rotate(userId, input), null], [step, AT], [batchItem, null]] as const) {
      const { row } = (await enqueueAdmitted(q.db, e, Infinity, at))!;
      const inTable = await jobRow(q.db, row.id);
      expect(row).toEqual(inTable);
      expect(Object.keys(row).sort()).toEqual(Object.keys(inTable).sort());
    }
  });
});

describe("a claim that takes the last due job", () => {
  test("says so: the lane sleeps instead of claiming again, neither at once nor when the job ends", async () => {
    const userId = await insertUser(q.db);
    const input = await uploadPdf(q, userId, 1);
    const { runner, lane } = await idleRunner();
    lane.release();
    await Bun.sleep(100);
    const claimsBefore = runner.claims.tool;
    const queued = await insertToolJob(q.db, { userId, type: "pdf.rotate", inputFileIds: [input] });
    await waitForStatus(q.db, queued, "succeeded");
    await Bun.sleep(300);
    expect(runner.claims.tool).toBe(claimsBefore + 1);
  });

  test("a job the per-user limit held back is claimed when the user's running job ends", async () => {
    const userId = await insertUser(q.db);
    const input = await uploadPdf(q, userId, 1);
    const runner = makeRunner(q, handlerSet(), { pool: new WorkerPool(2, log), pollMs: 60_000, limits: { perUser: 1, global: 0 } });
    unlistens.push(await q.listen("vektor_jobs", (l) => runner.poke(isLane(l) ? l : undefined)));
    const jobs = [await insertToolJob(q.db, { userId, type: "pdf.rotate", inputFileIds: [input] }), await insertToolJob(q.db, { userId, type: "pdf.rotate", inputFileIds: [input] })];
    runner.start();
    for (const id of jobs) await waitForStatus(q.db, id, "succeeded");
  });
});
