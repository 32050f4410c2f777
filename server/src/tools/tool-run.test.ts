/**
 * The runner's tool lane with a real worker pool and real tools: a long run does not hold up
 * control jobs, a cancel stops a run, a failing onSettled records nothing, a job of a dead
 * process is taken back and its outputs recorded once, and a host-file tool gets small inputs as
 * bytes, without a job folder.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { readdirSync, writeFileSync } from "node:fs";
import { getTool } from "@vektor/wasm-tools";
import { join } from "node:path";
import { file, job } from "../db/schema";
import type { ToolOutcome, ToolRunHandler } from "../queue/registry";
import { enqueue } from "../queue/enqueue";
import {
  clearQueue,
  countMarked,
  handlerSet,
  insertToolJob,
  insertUser,
  jobRow,
  log,
  makeRunner,
  openTestQueue,
  SETUP_TIMEOUT,
  stopRunners,
  uploadPdf,
  waitFor,
  waitForStatus,
  type TestQueue,
} from "../queue/queue.testkit";
import { WorkerPool } from "./pool";

let q: TestQueue;
let userId: string;
beforeAll(async () => void (q = await openTestQueue()), SETUP_TIMEOUT);
afterAll(() => q?.close());
beforeEach(async () => {
  await clearQueue(q.db);
  userId = await insertUser(q.db);
});
afterEach(stopRunners);

/**
 * Starting a worker and running a real tool takes seconds, many more on a loaded machine: polls
 * wait up to SLOW and each test gets TEST_TIMEOUT. Nothing asserts how long anything took.
 */
const SLOW = 200_000;
const TEST_TIMEOUT = 240_000;

/** Seconds of work for one worker: 40 pages at 300 dpi (the pool test's timeout case). */
async function longRender(): Promise<string> {
  const input = await uploadPdf(q, userId, 40);
  return insertToolJob(q.db, { userId, type: "pdf.render-png", params: { dpi: 300 }, inputFileIds: [input] });
}

/** Rendering on a worker: its first pages are done (the claim alone does not prove the tool started). */
function waitUntilRendering(id: string) {
  return waitFor(`job ${id} to report progress`, async () => {
    const row = await jobRow(q.db, id);
    return row.status === "running" && row.progress > 0;
  }, SLOW);
}

const outputsOf = (id: string) => q.db.select({ id: file.id }).from(file).where(eq(file.jobId, id));
/** Objects the store holds for this test's user: inputs and recorded outputs, nothing orphaned. */
const objectsOfUser = () => readdirSync(join(q.dir, "objects", "u", userId)).sort();

/** A long render on a runner of one tool lane (`leaseMs`: its leases), once its worker is at it. */
async function rendering(opts: { leaseMs?: number } = {}) {
  const runner = makeRunner(q, handlerSet(), { pool: new WorkerPool(1, log), ...opts });
  const id = await longRender();
  runner.start();
  await waitUntilRendering(id);
  return { runner, id };
}

describe("lanes", () => {
  test("a control job queued while a long tool job holds the only tool lane finishes before it", async () => {
    const { runner, id: tool } = await rendering();
    const control = (await enqueue(q.db, { kind: "workflow.step", data: { runId: "r", stepId: "s", attempt: 1 } }))!;
    runner.poke();
    await waitForStatus(q.db, control, "succeeded", SLOW);
    expect((await jobRow(q.db, tool)).status).toBe("running");
    runner.cancelLocal([tool]);
    await waitForStatus(q.db, tool, "cancelled", SLOW);
  }, TEST_TIMEOUT);
});

describe("cancel", () => {
  test("cancel_requested_at on a running tool job stops it at the next lease renewal: cancelled, CANCELLED", async () => {
    const { id } = await rendering({ leaseMs: 900 });
    await q.db.update(job).set({ cancelRequestedAt: new Date() }).where(eq(job.id, id));
    const cancelled = await waitForStatus(q.db, id, "cancelled", SLOW);
    expect(cancelled.errorCode).toBe("CANCELLED");
    expect(await outputsOf(id)).toEqual([]);
  }, TEST_TIMEOUT);

  test("cancelLocal stops a running tool job at once, with no renewal in between", async () => {
    // A 10-minute lease is renewed every 200 s: only cancelLocal can stop the run here.
    const { runner, id } = await rendering({ leaseMs: 600_000 });
    runner.cancelLocal([id]);
    const cancelled = await waitForStatus(q.db, id, "cancelled", SLOW);
    expect(cancelled).toMatchObject({ errorCode: "CANCELLED", cancelRequestedAt: null });
  }, TEST_TIMEOUT);
});

/**
 * A hook that queues a marker job in the outcome's transaction and then throws when `throwsOn`
 * says so (after `seen` got the outcome): a throw must roll the marker back with the outcome.
 */
function markingHook(maxAttempts: number, throwsOn: (outcome: ToolOutcome, seen: ToolOutcome[]) => boolean) {
  const seen: ToolOutcome[] = [];
  const hook: ToolRunHandler = {
    kind: "tool.run",
    maxAttempts,
    async onSettled(tx, row, outcome) {
      seen.push(outcome);
      await enqueue(tx, { kind: "approval.timeout", data: { runId: row.id, nodeId: outcome.ok ? "ok" : "failed" } });
      if (throwsOn(outcome, seen)) throw new Error("the hook failed after queueing its job");
    },
  };
  return { hook, seen };
}

describe("onSettled", () => {
  test("an onSettled that throws once rolls the success back; the job runs again and is recorded once, without orphan objects", async () => {
    const { hook, seen } = markingHook(3, (_outcome, all) => all.length === 1);
    const input = await uploadPdf(q, userId, 2);
    const id = await insertToolJob(q.db, { userId, type: "pdf.split", inputFileIds: [input] });
    makeRunner(q, handlerSet(hook), { pool: new WorkerPool(1, log) }).start();
    const done = await waitForStatus(q.db, id, "succeeded", SLOW);
    expect(done.attempts).toBe(2);
    expect(seen.map((o) => o.ok)).toEqual([true, true]);
    const outputs = (await outputsOf(id)).map((o) => o.id);
    expect(outputs).toHaveLength(2);
    expect(await countMarked(q.db, id)).toBe(1);
    expect(objectsOfUser().sort()).toEqual([input, ...outputs].sort());
  }, TEST_TIMEOUT);

  test("an onSettled that always throws on success: after the tool's attempts the job fails, recorded with its own hook call, no orphan objects", async () => {
    const { hook, seen } = markingHook(2, (outcome) => outcome.ok);
    const input = await uploadPdf(q, userId, 2);
    const id = await insertToolJob(q.db, { userId, type: "pdf.split", inputFileIds: [input] });
    makeRunner(q, handlerSet(hook), { pool: new WorkerPool(1, log) }).start();
    const settled = await waitFor(`job ${id} to settle`, async () => {
      const row = await jobRow(q.db, id);
      return row.status !== "queued" && row.status !== "running" && row;
    }, SLOW);
    expect(settled).toMatchObject({ status: "failed", errorCode: "TOOL_FAILED", outputFileIds: [], attempts: 2 });
    expect(seen.map((o) => o.ok)).toEqual([true, true, false]);
    expect(await outputsOf(id)).toEqual([]);
    expect(await countMarked(q.db, id)).toBe(1);
    expect(objectsOfUser()).toEqual([input]);
  }, TEST_TIMEOUT);
});

describe("a tool job whose process died", () => {
  test("is claimed again after its lease ran out and its outputs are recorded once", async () => {
    const settled: ToolOutcome[] = [];
    const hook: ToolRunHandler = { kind: "tool.run", maxAttempts: 3, onSettled: async (_tx, _row, o) => void settled.push(o) };
    const input = await uploadPdf(q, userId, 2);
    const id = await insertToolJob(q.db, { userId, type: "pdf.split", inputFileIds: [input] });
    const stale = new Date(Date.now() - 60_000);
    await q.db.update(job).set({ status: "running", attempts: 1, leaseUntil: stale, startedAt: stale }).where(eq(job.id, id));
    makeRunner(q, handlerSet(hook), { pool: new WorkerPool(1, log), leaseMs: 900 }).start();
    const done = await waitForStatus(q.db, id, "succeeded", SLOW);
    expect(done.attempts).toBe(2);
    expect(done.outputFileIds).toHaveLength(2);
    await Bun.sleep(1_500);
    expect(settled).toHaveLength(1);
    expect((await outputsOf(id)).map((f) => f.id).sort()).toEqual([...done.outputFileIds].sort());
    expect(objectsOfUser()).toEqual([input, ...done.outputFileIds].sort());
  }, TEST_TIMEOUT);
});

describe("stop (graceful shutdown)", () => {
  test("a running tool job that outlives the grace goes back to the queue: attempt not counted, nothing recorded", async () => {
    const { runner, id } = await rendering({ leaseMs: 600_000 });
    await runner.stop(0);
    const row = await jobRow(q.db, id);
    expect(row).toMatchObject({ status: "queued", attempts: 0, errorCode: "SHUTTING_DOWN", leaseUntil: null });
    expect(await outputsOf(id)).toEqual([]);
  }, TEST_TIMEOUT);

  test("a running tool job that ends within the grace is recorded, once, before stop returns", async () => {
    const runner = makeRunner(q, handlerSet(), { pool: new WorkerPool(1, log), leaseMs: 900 });
    const id = await insertToolJob(q.db, { userId, type: "pdf.render-png", params: { dpi: 120 }, inputFileIds: [await uploadPdf(q, userId, 2)] });
    runner.start();
    // Claimed (the worker still loads the engine then: it is running when stop is asked, all but always).
    await waitFor(`job ${id} to be claimed`, async () => (await jobRow(q.db, id)).status !== "queued", SLOW);
    await runner.stop(SLOW);
    expect(await jobRow(q.db, id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await outputsOf(id)).toHaveLength(2);
  }, TEST_TIMEOUT);
});

describe("a tool that reads host files", () => {
  /** A job folder cannot be made under a file: a run that needs one cannot start. */
  function unusableScratch(): string {
    const blocker = join(q.dir, `blocker-${Date.now()}`);
    writeFileSync(blocker, "");
    return join(blocker, "tmp");
  }

  test("gets an input under HOST_FILES_FROM as bytes (no job folder), and one at or over it staged in a job folder", async () => {
    expect(getTool("pdf.rotate")?.manifest.io.hostFiles).toBe(true);
    const input = await uploadPdf(q, userId, 1);
    const small = await insertToolJob(q.db, { userId, type: "pdf.rotate", params: { degrees: 90 }, inputFileIds: [input] });
    makeRunner(q, handlerSet(), { pool: new WorkerPool(1, log), scratchDir: unusableScratch() }).start();
    await waitForStatus(q.db, small, "succeeded", SLOW);
    await stopRunners();
    // The same input counted as big: the run needs its folder, cannot make it, and is not recorded as done.
    const big = await insertToolJob(q.db, { userId, type: "pdf.rotate", params: { degrees: 90 }, inputFileIds: [input] });
    makeRunner(q, handlerSet(), { pool: new WorkerPool(1, log), scratchDir: unusableScratch(), hostFilesFrom: 0 }).start();
    const tried = await waitFor("the big job's first attempt to end", async () => {
      const row = await jobRow(q.db, big);
      return row.errorCode ? row : null;
    }, SLOW);
    expect(tried).toMatchObject({ errorCode: "TOOL_FAILED", outputFileIds: [] });
    expect(tried.status).not.toBe("succeeded");
  }, TEST_TIMEOUT);
});
