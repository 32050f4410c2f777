/** Statements built once and run on the database or in any transaction (reusable.ts), on the real database. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { openTestQueue, SETUP_TIMEOUT, type TestQueue } from "../queue/queue.testkit";
import type { Db } from "./client";
import { into, reusable } from "./reusable";
import { job } from "./schema";

let q: TestQueue;
beforeAll(async () => {
  q = await openTestQueue();
}, SETUP_TIMEOUT);
afterAll(() => q?.close());

const p = sql.placeholder;
let builds = 0;
const insertJob = reusable((db) => {
  builds++;
  return db
    .insert(job)
    .values({ id: p("id"), kind: "workflow.step", lane: "control", type: "workflow.step", status: "queued", params: p("params"), inputFileIds: p("inputs"), data: p("data"), runAfter: p("runAfter") })
    .returning();
});
const jobById = reusable((db) => db.select().from(job).where(eq(job.id, p("id"))));
const lockJob = reusable((db) => db.select({ id: job.id, params: job.params }).from(job).where(eq(job.id, p("id"))).for("update"));
const endJob = reusable((db) =>
  db
    .update(job)
    .set({ status: "succeeded", outputFileIds: into("outputs"), finishedAt: into("finishedAt"), errorCode: null })
    .where(eq(job.id, p("id")))
    .returning({ id: job.id, status: job.status, outputs: job.outputFileIds, finishedAt: job.finishedAt }),
);

const plainRead = (db: Db, id: string) => db.select().from(job).where(eq(job.id, id));

describe("reusable statements", () => {
  test("built once, then run with other values on the database and in transactions, mapped as drizzle maps them", async () => {
    const runAfter = new Date("2026-01-02T03:04:05.678Z");
    const [a] = await insertJob(q.db, { id: "reuse-a", params: { page: [1, 2] }, inputs: ["f_1"], data: null, runAfter });
    expect(a).toEqual((await plainRead(q.db, "reuse-a"))[0]);
    expect([a.params, a.inputFileIds, a.data, a.runAfter]).toEqual([{ page: [1, 2] }, ["f_1"], null, runAfter]);
    await q.db.transaction(async (tx) => {
      const [b] = await insertJob(tx, { id: "reuse-b", params: {}, inputs: [], data: { runId: "r" }, runAfter });
      expect([b.id, b.data]).toEqual(["reuse-b", { runId: "r" }]);
      expect(await lockJob(tx, { id: "reuse-a" })).toEqual([{ id: "reuse-a", params: { page: [1, 2] } }]);
      const finishedAt = new Date("2026-01-02T03:04:06.000Z");
      expect(await endJob(tx, { id: "reuse-b", outputs: ["f_9"], finishedAt })).toEqual([{ id: "reuse-b", status: "succeeded", outputs: ["f_9"], finishedAt }]);
    });
    expect(await jobById(q.db, { id: "reuse-b" })).toEqual(await plainRead(q.db, "reuse-b"));
    expect(await jobById(q.db, { id: "nobody" })).toEqual([]);
    expect(builds).toBe(1);
  });

  test("a statement run in a transaction is part of it: rolled back with it", async () => {
    const failed = q.db.transaction(async (tx) => {
      await insertJob(tx, { id: "reuse-rolled-back", params: {}, inputs: [], data: null, runAfter: new Date() });
      expect(await jobById(tx, { id: "reuse-rolled-back" })).toHaveLength(1);
      throw new Error("undo");
    });
    await expect(failed).rejects.toThrow("undo");
    expect(await jobById(q.db, { id: "reuse-rolled-back" })).toEqual([]);
  });

  test("a missing value is an error, not a statement run with the first call's", async () => {
    await expect(jobById(q.db, {})).rejects.toThrow(/No value for placeholder "id"/);
  });
});
