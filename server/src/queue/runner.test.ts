/**
 * The runner's control lane on the real database: retries with back-off, completion hooks in the
 * outcome's transaction, jobs of a dead process taken back, and the per-user limit of tool jobs.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { file, job } from "../db/schema";
import { newId } from "../lib/ids";
import type { ControlHandler, ControlOutcome, Failure } from "./registry";
import { enqueue } from "./enqueue";
import { isLane } from "./kinds";
import { claimStatement, QUEUED } from "./claim";
import {
  capturedLog,
  clearQueue,
  countMarked,
  gate,
  handlerSet,
  insertToolJob,
  insertUser,
  jobRow,
  makeRunner,
  openTestQueue,
  SETUP_TIMEOUT,
  stopRunners,
  uploadPdf,
  waitFor,
  waitForStatus,
  type TestQueue,
} from "./queue.testkit";

let q: TestQueue;
beforeAll(async () => void (q = await openTestQueue()), SETUP_TIMEOUT);
afterAll(() => q?.close());
beforeEach(() => clearQueue(q.db));
afterEach(stopRunners);

const stepJob = (id: string) => ({ kind: "workflow.step" as const, data: { runId: id, stepId: "s", attempt: 1 } });
/** What a hook queues: an approval.timeout job marked with `marker`, counted by countMarked. */
const markerJob = (marker: string) => ({ kind: "approval.timeout" as const, data: { runId: marker, nodeId: "n" } });

type TestKind = "workflow.step" | "notify.webhook";
const BACKOFF = { attempts: 5, baseDelayMs: 400, maxDelayMs: 10_000 };

/** A handler whose first two tries fail as `failTry` says (a throw, or a retry asked for) and whose third succeeds; `tries` holds when each ran. */
function flaky<K extends TestKind>(kind: K, failTry: (n: number) => ControlOutcome) {
  const tries: number[] = [];
  const handler = {
    kind,
    retry: BACKOFF,
    async run() {
      tries.push(Date.now());
      if (tries.length < 3) return failTry(tries.length);
    },
  } as ControlHandler<K>;
  return { handler, tries };
}

/** Each retry came after its back-off: at least half the step, base after the first failure, 2 x base after the second. */
function expectBackedOff(tries: number[]) {
  expect(tries).toHaveLength(3);
  expect(tries[1] - tries[0]).toBeGreaterThanOrEqual(BACKOFF.baseDelayMs * 0.5);
  expect(tries[2] - tries[1]).toBeGreaterThanOrEqual(BACKOFF.baseDelayMs * 2 * 0.5);
}

/** A handler whose every try fails as `run` does, 3 attempts in all; onFailed records the failure and queues a marker job in its transaction. */
function hopeless<K extends TestKind>(kind: K, run: () => Promise<ControlOutcome>) {
  const failures: Failure[] = [];
  const handler = {
    kind,
    retry: { attempts: 3, baseDelayMs: 50, maxDelayMs: 100 },
    run,
    async onFailed(tx, j, failure) {
      failures.push(failure);
      await enqueue(tx, markerJob(j.id));
    },
  } as ControlHandler<K>;
  return { handler, failures };
}

describe("retries", () => {
  test("a handler that throws twice then succeeds ends succeeded after 3 tries, each retry after its back-off", async () => {
    const { handler, tries } = flaky("workflow.step", (n) => {
      throw new Error(`try ${n} failed`);
    });
    const id = (await enqueue(q.db, stepJob("r")))!;
    makeRunner(q, handlerSet(handler)).start();
    const done = await waitForStatus(q.db, id, "succeeded");
    expect(done.attempts).toBe(3);
    expectBackedOff(tries);
  });

  test("a handler that always throws fails after the policy's attempts, and onFailed commits exactly once", async () => {
    let tries = 0;
    const { handler: broken, failures } = hopeless("workflow.step", async () => {
      throw new Error(`try ${++tries} failed`);
    });
    const id = (await enqueue(q.db, stepJob("r")))!;
    makeRunner(q, handlerSet(broken)).start();
    const failed = await waitForStatus(q.db, id, "failed");
    expect(failed).toMatchObject({ attempts: 3, errorCode: "HANDLER_FAILED", errorMessage: "try 3 failed" });
    expect(tries).toBe(3);
    expect(failures).toEqual([{ code: "HANDLER_FAILED", message: "try 3 failed" }]);
    expect(await countMarked(q.db, id)).toBe(1);
  });
});

describe("a retry asked for without a throw", () => {
  test("{ retry } counts the attempt and backs off like a throw; each failed attempt is one log line, no stack", async () => {
    const { handler, tries } = flaky("notify.webhook", (n) => ({ retry: `HTTP 503 from receiver (try ${n})`, log: { deliveryId: "dlv_t" } }));
    const captured = capturedLog("info");
    const id = (await enqueue(q.db, { kind: "notify.webhook", data: { deliveryId: "dlv_t" } }))!;
    // The first retry's row, caught while it waits: status, attempts and run_after as a throw leaves them.
    makeRunner(q, handlerSet(handler), { log: captured.log }).start();
    const waiting = await waitFor("the first retry queued", async () => {
      const row = await jobRow(q.db, id);
      return (row.attempts === 1 && row.status === "queued") || row.attempts > 1 ? row : null;
    });
    if (waiting.attempts === 1) {
      expect(waiting).toMatchObject({ status: "queued", errorCode: "HANDLER_FAILED", errorMessage: "HTTP 503 from receiver (try 1)", leaseUntil: null });
      expect(waiting.runAfter.getTime()).toBeGreaterThan(waiting.startedAt!.getTime());
    }
    const done = await waitForStatus(q.db, id, "succeeded");
    expect(done.attempts).toBe(3);
    expectBackedOff(tries);
    const mine = captured.lines.filter((l) => l.jobId === id);
    expect(mine.map((l) => [l.msg, l.attempt, l.reason, l.deliveryId, l.kind])).toEqual([
      ["job attempt failed, will retry", 1, "HTTP 503 from receiver (try 1)", "dlv_t", "notify.webhook"],
      ["job attempt failed, will retry", 2, "HTTP 503 from receiver (try 2)", "dlv_t", "notify.webhook"],
    ]);
    for (const l of mine) expect(l).toMatchObject({ level: 30, maxAttempts: 5, retryInMs: expect.any(Number) });
    expect(captured.raw.join("")).not.toContain('"stack"');
    expect(captured.raw.join("")).not.toContain("    at ");
  });

  test("after the last attempt: failed with the reason, onFailed once, one warn line saying it gave up", async () => {
    let tries = 0;
    const { handler: down, failures } = hopeless("notify.webhook", async () => ({ retry: `refused ${++tries}` }));
    const captured = capturedLog("info");
    const id = (await enqueue(q.db, { kind: "notify.webhook", data: { deliveryId: "dlv_down" } }))!;
    makeRunner(q, handlerSet(down), { log: captured.log }).start();
    const failed = await waitForStatus(q.db, id, "failed");
    expect(failed).toMatchObject({ attempts: 3, errorCode: "HANDLER_FAILED", errorMessage: "refused 3" });
    expect(failures).toEqual([{ code: "HANDLER_FAILED", message: "refused 3" }]);
    expect(await countMarked(q.db, id)).toBe(1);
    const mine = captured.lines.filter((l) => l.jobId === id);
    expect(mine.map((l) => [l.level, l.msg, l.attempt])).toEqual([
      [30, "job attempt failed, will retry", 1],
      [30, "job attempt failed, will retry", 2],
      [40, "job attempt failed, giving up", 3],
    ]);
    expect(captured.raw.join("")).not.toContain('"stack"');
  });

  test("a throw is still logged with its stack", async () => {
    const broken: ControlHandler<"notify.webhook"> = {
      kind: "notify.webhook",
      retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 },
      run: async () => {
        throw new Error("nobody expected this");
      },
    };
    const captured = capturedLog("info");
    const id = (await enqueue(q.db, { kind: "notify.webhook", data: { deliveryId: "dlv_x" } }))!;
    makeRunner(q, handlerSet(broken), { log: captured.log }).start();
    await waitForStatus(q.db, id, "failed");
    const line = await waitFor("the failure's log line", async () => captured.lines.find((l) => l.jobId === id));
    expect(line).toMatchObject({ msg: "control job failed", err: { message: "nobody expected this", stack: expect.stringContaining("    at ") } });
  });
});

describe("completion hooks", () => {
  test("an onSucceeded that throws rolls the success back: the job is claimed again after its lease and succeeds once", async () => {
    let runs = 0;
    let hookCalls = 0;
    const hooked: ControlHandler<"workflow.step"> = {
      kind: "workflow.step",
      retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 10 },
      async run() {
        runs++;
      },
      async onSucceeded(tx, j) {
        await enqueue(tx, markerJob(j.id));
        if (++hookCalls === 1) throw new Error("the hook failed after queueing its job");
      },
    };
    const id = (await enqueue(q.db, stepJob("r")))!;
    makeRunner(q, handlerSet(hooked), { leaseMs: 600 }).start();
    const done = await waitForStatus(q.db, id, "succeeded");
    // Claimed twice: the first success was not recorded, and the first hook's job went with it.
    expect(done.attempts).toBe(2);
    expect(runs).toBe(2);
    expect(hookCalls).toBe(2);
    expect(await countMarked(q.db, id)).toBe(1);
  });
});

describe("a job whose process died", () => {
  test("a running job whose lease ran out is claimed again and finished once", async () => {
    const runs: { attempts: number }[] = [];
    const once: ControlHandler<"workflow.step"> = {
      kind: "workflow.step",
      retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 10 },
      async run(j) {
        runs.push({ attempts: j.attempts });
      },
      onSucceeded: async (tx, j) => void (await enqueue(tx, markerJob(j.id))),
    };
    const id = newId("job");
    const stale = new Date(Date.now() - 60_000);
    await q.db.insert(job).values({ id, kind: "workflow.step", lane: "control", type: "workflow.step", status: "running", attempts: 1, leaseUntil: stale, startedAt: stale, params: {}, inputFileIds: [], data: stepJob("r").data, origin: "system" });
    const runner = makeRunner(q, handlerSet(once), { leaseMs: 600 });
    runner.start();
    const done = await waitForStatus(q.db, id, "succeeded");
    expect(done.attempts).toBe(2);
    // A few more polls and lease lengths: nothing runs it again.
    await Bun.sleep(1_500);
    expect(runs).toEqual([{ attempts: 2 }]);
    expect(await countMarked(q.db, id)).toBe(1);
    expect((await jobRow(q.db, id)).status).toBe("succeeded");
  });
});

describe("the per-user limit", () => {
  test("counts tool jobs only: the user's running control job does not hold back their tool job", async () => {
    const userId = await insertUser(q.db);
    const runner = makeRunner(q, handlerSet(), { limits: { perUser: 1, global: 0 } });
    const control = (await enqueue(q.db, { ...stepJob("r"), userId }))!;
    expect((await runner.claim("control"))?.id).toBe(control);
    const tool1 = await insertToolJob(q.db, { userId, type: "pdf.split" });
    const tool2 = await insertToolJob(q.db, { userId, type: "pdf.split" });
    expect((await runner.claim("tool"))?.id).toBe(tool1);
    // The limit itself holds: the user's second tool job waits for the first.
    expect(await runner.claim("tool")).toBeNull();
    const other = await insertToolJob(q.db, { userId: await insertUser(q.db), type: "pdf.split" });
    expect((await claimStatement(q.db, QUEUED, { lane: "tool", perUser: 1, global: 0, leaseMs: 30_000 }))[0]?.id).toBe(other);
    expect((await jobRow(q.db, tool2)).status).toBe("queued");
    const [running] = await q.db.select({ n: sql<number>`count(*)::int` }).from(job).where(eq(job.status, "running"));
    expect(running.n).toBe(3);
  });
});

describe("a tool job's claim", () => {
  test("hands over the rows of its input files with the job (one statement): a file that is gone is absent", async () => {
    const userId = await insertUser(q.db);
    const input = await uploadPdf(q, userId, 1);
    const id = await insertToolJob(q.db, { userId, type: "pdf.rotate", inputFileIds: [input, "f_gone"] });
    const claimed = await makeRunner(q, handlerSet()).claim("tool");
    const [row] = await q.db.select().from(file).where(eq(file.id, input));
    expect(claimed).toMatchObject({ id, status: "running", attempts: 1, inputFileIds: [input, "f_gone"] });
    expect(claimed?.startedAt).toBeInstanceOf(Date);
    expect(claimed?.inputFiles).toEqual([{ id: input, status: "UPLOADED", filename: row.filename, size: row.size, mime: row.mime, storageKey: row.storageKey }]);
  });
});

describe("lanes", () => {
  test("deliveries that hang fill the outbound lanes only: a workflow transition queued after them still runs at once", async () => {
    const held = gate();
    const started: string[] = [];
    const hanging: ControlHandler<"notify.webhook"> = {
      kind: "notify.webhook",
      retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 },
      async run(j) {
        started.push(j.data.deliveryId);
        await held.promise;
      },
    };
    const deliveries = await Promise.all(["d1", "d2", "d3"].map((deliveryId) => enqueue(q.db, { kind: "notify.webhook", data: { deliveryId } })));
    makeRunner(q, handlerSet(hanging), { controlLanes: 1, outboundLanes: 2 }).start();
    const step = (await enqueue(q.db, stepJob("after-deliveries")))!;
    try {
      await waitForStatus(q.db, step, "succeeded");
      // Two lanes took two deliveries (in whichever order the three were queued); the third waits for a free outbound lane.
      expect(started).toHaveLength(2);
      const statuses = await Promise.all(deliveries.map(async (id) => (await jobRow(q.db, id!)).status));
      expect(statuses.filter((s) => s === "queued")).toHaveLength(1);
    } finally {
      held.open();
    }
    for (const id of deliveries) await waitForStatus(q.db, id!, "succeeded");
  });
});

describe("wake-ups", () => {
  test("a job committed while every lane sleeps under a 60 s poll is taken at once: the commit's notification wakes one lane of its kind", async () => {
    const ran: string[] = [];
    const step: ControlHandler<"workflow.step"> = { kind: "workflow.step", retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 }, run: async (j) => void ran.push(j.data.runId) };
    const runner = makeRunner(q, handlerSet(step), { pollMs: 60_000, controlLanes: 3 });
    // Only a notification that names the control lane wakes anything here.
    const unlisten = await q.listen("vektor_jobs", (lane) => lane === "control" && runner.poke("control"));
    try {
      runner.start();
      await Bun.sleep(300); // every lane has looked once and gone to sleep
      // Three jobs queued by one statement: one lane is woken and wakes the next as it claims.
      const ids = await q.db.transaction(async (tx) => Promise.all(["a", "b", "c"].map((r) => enqueue(tx, stepJob(r)))));
      // Far under the 60 s poll on any machine: only the notification can have woken them.
      for (const id of ids) await waitForStatus(q.db, id!, "succeeded", 20_000);
      expect(ran.sort()).toEqual(["a", "b", "c"]);
    } finally {
      await unlisten();
    }
  });

  test("a wake-up goes to its kind of lane only, and one claim takes what one statement queued: the other lanes do not claim", async () => {
    const ran: string[] = [];
    const step: ControlHandler<"workflow.step"> = { kind: "workflow.step", retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 }, run: async (j) => void ran.push(j.data.runId) };
    const delivered: string[] = [];
    const hook: ControlHandler<"notify.webhook"> = { kind: "notify.webhook", retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 }, run: async (j) => void delivered.push(j.data.deliveryId) };
    // Under a minute-long poll only wake-ups make a lane claim; four control lanes, three jobs: one claim is enough.
    const runner = makeRunner(q, handlerSet(step, hook), { pollMs: 60_000, controlLanes: 4, outboundLanes: 2 });
    // As boot.ts listens: every notification is handed to the runner with the lane it names.
    const unlisten = await q.listen("vektor_jobs", (lane) => runner.poke(isLane(lane) ? lane : undefined));
    try {
      runner.start();
      // Each kind looks once at start, finds nothing and goes to sleep.
      await waitFor("the first claims", async () => runner.claims.control >= 1 && runner.claims.outbound >= 1);
      await Bun.sleep(300);
      const before = { ...runner.claims };
      const ids = await q.db.transaction(async (tx) => Promise.all(["a", "b", "c"].map((r) => enqueue(tx, stepJob(r)))));
      for (const id of ids) await waitForStatus(q.db, id!, "succeeded", 20_000);
      await Bun.sleep(300); // room for any claim the lanes' ends would set off
      expect(ran.sort()).toEqual(["a", "b", "c"]);
      expect(runner.claims).toEqual({ ...before, control: before.control + 1 });
      const delivery = (await enqueue(q.db, { kind: "notify.webhook", data: { deliveryId: "d" } }))!;
      await waitForStatus(q.db, delivery, "succeeded", 20_000);
      await Bun.sleep(300);
      expect(runner.claims).toEqual({ ...before, control: before.control + 1, outbound: before.outbound + 1 });
    } finally {
      await unlisten();
    }
  });
});
