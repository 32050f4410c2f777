/**
 * The schedule dispatcher as a self-rescheduling queue job, on the real database: consecutive
 * windows join end to start, the next dispatch is queued a minute before its window under one
 * dedupe key, a dispatch long overdue does not run every missed fire, and a failed one leaves
 * its window to the next.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { job } from "../../db/schema";
import { clearQueue, log, openTestQueue, SETUP_TIMEOUT, type TestQueue } from "../../queue/queue.testkit";
import { ConfigService } from "../../config/service";
import type { WorkflowRuns } from "./start";
import { DISPATCH_WINDOW_MS, dbNow, scheduleDispatch, scheduleDispatchHandler } from "./schedule";

let q: TestQueue;
beforeAll(async () => {
  q = await openTestQueue();
}, SETUP_TIMEOUT);
afterAll(() => q.close());

const dispatches = () => q.db.select().from(job).where(eq(job.kind, "schedule.dispatch"));
const handler = () => scheduleDispatchHandler({ db: q.db, config: new ConfigService(q.db), workflows: {} as WorkflowRuns, log });

/** Runs the handler on `data` and records its success as the runner does (onSucceeded in a transaction). */
async function runOnce(data: { from?: string }) {
  await clearQueue(q.db);
  const h = handler();
  const view = { id: "job_test", kind: "schedule.dispatch" as const, data, userId: null, attempts: 1 };
  await h.run(view);
  await q.db.transaction((tx) => h.onSucceeded!(tx, view));
  const [next] = await dispatches();
  return next;
}

describe("schedule dispatch job", () => {
  test("queued once however many processes start; the first covers [now, now + 5 min)", async () => {
    await clearQueue(q.db);
    expect(await scheduleDispatch(q.db)).not.toBeNull();
    expect(await scheduleDispatch(q.db)).toBeNull();
    expect((await dispatches()).length).toBe(1);
    const before = await dbNow(q.db);
    const next = await runOnce({});
    const from = new Date((next.data as { from: string }).from);
    expect(from.getTime() - before.getTime()).toBeGreaterThanOrEqual(DISPATCH_WINDOW_MS);
    expect(from.getTime() - before.getTime()).toBeLessThan(DISPATCH_WINDOW_MS + 10_000);
    expect(next.runAfter.getTime()).toBe(from.getTime() - 60_000);
    expect(next.dedupeKey).toBe("schedule.dispatch");
  });

  test("each window starts where the last ended", async () => {
    const from = new Date((await dbNow(q.db)).getTime() + 60_000);
    const next = await runOnce({ from: from.toISOString() });
    expect((next.data as { from: string }).from).toBe(new Date(from.getTime() + DISPATCH_WINDOW_MS).toISOString());
  });

  test("after a long stop, only the last window's fire times are caught up", async () => {
    const now = await dbNow(q.db);
    const next = await runOnce({ from: new Date(now.getTime() - 3_600_000).toISOString() });
    const end = new Date((next.data as { from: string }).from).getTime();
    expect(end).toBeGreaterThanOrEqual(now.getTime());
    expect(end).toBeLessThan(now.getTime() + 10_000);
  });

  test("a dispatch that failed for good leaves its window to the next one", async () => {
    await clearQueue(q.db);
    const from = new Date(Date.now() + 120_000).toISOString();
    const h = handler();
    await q.db.transaction((tx) => h.onFailed!(tx, { id: "job_x", kind: "schedule.dispatch", data: { from }, userId: null, attempts: 3 }, { code: "HANDLER_FAILED", message: "x" }));
    const [next] = await dispatches();
    expect(next.data).toEqual({ from });
  });
});
