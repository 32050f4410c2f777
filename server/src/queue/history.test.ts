/** Ended jobs leave the table after their keeping (history.ts), on the real database. */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { job } from "../db/schema";
import { clearQueue, openTestQueue, SETUP_TIMEOUT, type TestQueue } from "./queue.testkit";
import { pruneEndedJobs } from "./history";

let q: TestQueue;
const ready = openTestQueue().then((opened) => (q = opened));
afterAll(() => q?.close());
beforeEach(async () => {
  await ready;
  await clearQueue(q.db);
}, SETUP_TIMEOUT);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** One job row of `kind` (tool.run: `origin`), in `status`, queued `age` ms before `now`. */
function row(id: string, kind: string, status: string, age: number, origin = kind === "tool.run" ? "api" : "system") {
  return { id, kind, status, age, origin };
}

async function insert(now: Date, rows: ReturnType<typeof row>[]): Promise<void> {
  for (const r of rows) {
    const createdAt = new Date(now.getTime() - r.age).toISOString();
    await q.db.execute(sql`insert into job (id, kind, lane, type, status, params, input_file_ids, origin, created_at)
      values (${r.id}, ${r.kind}, ${r.kind === "tool.run" ? "tool" : "control"}, ${r.kind === "tool.run" ? "pdf.rotate" : r.kind}, ${r.status}, '{}', '[]', ${r.origin}, ${createdAt}::timestamptz)`);
  }
}

const left = async () => (await q.db.select({ id: job.id }).from(job)).map((r) => r.id).sort();

const ROWS = [
  row("control-ended-2d", "retention.sweep", "succeeded", 2 * DAY),
  row("control-failed-2d", "workflow.step", "failed", 2 * DAY),
  row("control-ended-2h", "schedule.dispatch", "succeeded", 2 * HOUR),
  row("control-queued-2d", "approval.timeout", "queued", 2 * DAY),
  row("call-ended-31d", "tool.run", "succeeded", 31 * DAY),
  row("call-ended-29d", "tool.run", "succeeded", 29 * DAY),
  row("upload-failed-40d", "tool.run", "failed", 40 * DAY, "upload"),
  row("call-cancelled-40d", "tool.run", "cancelled", 40 * DAY),
  row("call-running-40d", "tool.run", "running", 40 * DAY),
  row("batch-item-40d", "tool.run", "succeeded", 40 * DAY, "batch"),
  row("step-job-40d", "tool.run", "succeeded", 40 * DAY, "workflow"),
];

describe("ended jobs past their keeping", () => {
  test("internal jobs go a day after they were queued, calls' tool jobs after the history's days; live jobs, batch items and steps' jobs stay", async () => {
    const now = new Date();
    await insert(now, ROWS);
    expect(await pruneEndedJobs(q.db, now, 30)).toBe(5);
    expect(await left()).toEqual(["batch-item-40d", "call-ended-29d", "call-running-40d", "control-ended-2h", "control-queued-2d", "step-job-40d"]);
    // Nothing more to delete: the same sweep again deletes nothing.
    expect(await pruneEndedJobs(q.db, now, 30)).toBe(0);
  });

  test("a history of 0 days keeps every tool job; internal ones still go", async () => {
    const now = new Date();
    await insert(now, ROWS);
    expect(await pruneEndedJobs(q.db, now, 0)).toBe(2);
    expect((await left()).filter((id) => id.startsWith("control"))).toEqual(["control-ended-2h", "control-queued-2d"]);
    expect((await left()).filter((id) => !id.startsWith("control"))).toHaveLength(7);
  });

  test("the sweep's now decides: as of 2 days later the 2-hour-old internal job and the 29-day-old call go too", async () => {
    const now = new Date();
    await insert(now, ROWS);
    expect(await pruneEndedJobs(q.db, new Date(now.getTime() + 2 * DAY), 30)).toBe(7);
    expect(await left()).toEqual(["batch-item-40d", "call-running-40d", "control-queued-2d", "step-job-40d"]);
  });
});
