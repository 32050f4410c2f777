/** Putting work on the queue, on the real database: dedupe keys and delayed jobs (run_after). */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { job } from "../db/schema";
import { dueNow, enqueue, enqueueAll, type AnyEnqueue } from "./enqueue";
import { claimJobs, QUEUED } from "./claim";
import { requeue } from "./control";
import { rolledBack } from "../db/rolled-back";
import type { ControlHandler } from "./registry";
import { clearQueue, gate, handlerSet, insertToolJob, insertUser, jobRow, makeRunner, openTestQueue, SETUP_TIMEOUT, stopRunners, waitFor, waitForStatus, type TestQueue } from "./queue.testkit";

let q: TestQueue;
beforeAll(async () => void (q = await openTestQueue()), SETUP_TIMEOUT);
afterAll(() => q?.close());
beforeEach(() => clearQueue(q.db));
afterEach(stopRunners);

const step = (n: number) => ({ kind: "workflow.step" as const, data: { runId: "r", stepId: `s${n}`, attempt: 1 } });
const withKey = (key: string) => q.db.select({ id: job.id, status: job.status }).from(job).where(eq(job.dedupeKey, key));

describe("enqueue with a dedupe key", () => {
  test("while a job holding the key is queued, a second enqueue returns null and adds no row", async () => {
    const first = await enqueue(q.db, { ...step(1), dedupeKey: "k" });
    expect(first).toBeString();
    expect(await enqueue(q.db, { ...step(2), dedupeKey: "k" })).toBeNull();
    expect(await withKey("k")).toEqual([{ id: first!, status: "queued" }]);
  });

  test("two enqueues of one key at the same moment queue one job", async () => {
    const ids = await Promise.all([enqueue(q.db, { ...step(1), dedupeKey: "k" }), enqueue(q.db, { ...step(2), dedupeKey: "k" })]);
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    expect(await withKey("k")).toHaveLength(1);
  });

  test("while the job runs the key is still held; once it succeeded the key can be used again", async () => {
    const release = gate();
    const held: ControlHandler<"workflow.step"> = { kind: "workflow.step", retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 }, run: () => release.promise };
    const first = (await enqueue(q.db, { ...step(1), dedupeKey: "k" }))!;
    makeRunner(q, handlerSet(held)).start();
    await waitForStatus(q.db, first, "running");
    expect(await enqueue(q.db, { ...step(2), dedupeKey: "k" })).toBeNull();
    release.open();
    await waitForStatus(q.db, first, "succeeded");
    const again = await enqueue(q.db, { ...step(3), dedupeKey: "k" });
    expect(again).toBeString();
    expect(await withKey("k")).toHaveLength(2);
  });

  test("an enqueue inside a transaction that rolls back leaves no job and no key held", async () => {
    await q.db
      .transaction(async (tx) => {
        expect(await enqueue(tx, { ...step(1), dedupeKey: "k" })).toBeString();
        throw new Error("the transition failed");
      })
      .catch(() => {});
    expect(await withKey("k")).toEqual([]);
    expect(await enqueue(q.db, { ...step(2), dedupeKey: "k" })).toBeString();
  });
});

describe("run_after", () => {
  test("a job is not claimed before its run_after; a due one is", async () => {
    const runner = makeRunner(q, handlerSet());
    const later = (await enqueue(q.db, { ...step(1), runAfter: new Date(Date.now() + 3_600_000) }))!;
    expect(await runner.claim("control")).toBeNull();
    const due = (await enqueue(q.db, { ...step(2), runAfter: new Date(Date.now() - 1_000) }))!;
    expect((await runner.claim("control"))?.id).toBe(due);
    expect(await runner.claim("control")).toBeNull();
    expect((await jobRow(q.db, later)).status).toBe("queued");
  });

  test("a job delayed 1.5 s waits while a later immediate job runs, then runs once its time has come", async () => {
    const ran: string[] = [];
    const record: ControlHandler<"workflow.step"> = { kind: "workflow.step", retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 }, run: async (j) => void ran.push(j.id) };
    const runAfter = new Date(Date.now() + 1_500);
    const delayed = (await enqueue(q.db, { ...step(1), runAfter }))!;
    const now = (await enqueue(q.db, step(2)))!;
    makeRunner(q, handlerSet(record)).start();
    await waitForStatus(q.db, now, "succeeded");
    // Read in one statement: if the delay has not passed yet, the delayed job must still be queued.
    const [early] = await q.db.select({ status: job.status, due: sql<boolean>`${job.runAfter} <= now()` }).from(job).where(eq(job.id, delayed));
    if (!early.due) expect(early.status).toBe("queued");
    const done = await waitForStatus(q.db, delayed, "succeeded");
    expect(ran).toEqual([now, delayed]);
    expect(done.startedAt!.getTime()).toBeGreaterThanOrEqual(runAfter.getTime());
    expect(done.attempts).toBe(1);
  });
});

describe("dueNow", () => {
  test("a queued job delayed under a key becomes due now and is taken at once; an already due, running or absent key gives null", async () => {
    const runner = makeRunner(q, handlerSet());
    const delayed = (await enqueue(q.db, { ...step(1), runAfter: new Date(Date.now() + 3_600_000), dedupeKey: "later" }))!;
    expect(await runner.claim("control")).toBeNull();
    expect(await dueNow(q.db, "later")).toBe(delayed);
    expect(await dueNow(q.db, "later")).toBeNull(); // already due
    expect((await runner.claim("control"))?.id).toBe(delayed);
    expect(await dueNow(q.db, "later")).toBeNull(); // running
    expect(await dueNow(q.db, "nobody")).toBeNull();
  });

  test("the lane is woken: a runner polling once a minute takes the job at once", async () => {
    const ran: string[] = [];
    const record: ControlHandler<"workflow.step"> = { kind: "workflow.step", retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 }, run: async (j) => void ran.push(j.id) };
    const runner = makeRunner(q, handlerSet(record), { pollMs: 60_000 });
    const unlisten = await q.listen("vektor_jobs", (lane) => lane === "control" && runner.poke("control"));
    try {
      const delayed = (await enqueue(q.db, { ...step(1), runAfter: new Date(Date.now() + 3_600_000), dedupeKey: "woken" }))!;
      runner.start();
      // Every lane asleep under the minute-long poll (the first claims found the job not due).
      await Bun.sleep(300);
      expect(ran).toEqual([]);
      expect(await dueNow(q.db, "woken")).toBe(delayed);
      await waitForStatus(q.db, delayed, "succeeded", 30_000);
    } finally {
      await unlisten();
    }
  });
});

describe("due at once", () => {
  // run_after keeps milliseconds and a cast rounds: now() stored as it is landed up to half a
  // millisecond after the now() of a claim that followed at once, which found the job not yet due
  // and left it for the next poll. Each case runs in a transaction rolled back (db/rolled-back.ts),
  // whose now() is fixed: what a claim right after the write sees. One transaction has one now():
  // twenty, each with its own, and with rounding about one in a million would have passed.
  const LANE = { lane: "control" as const, perUser: 0, global: 0, leaseMs: 60_000 };
  const later = () => new Date(Date.now() + 3_600_000);

  test("a job queued now is claimable by a claim at the same instant", async () => {
    for (let i = 0; i < 20; i++) {
      await rolledBack(q.db, async (t) => {
        const id = await enqueue(t, step(i));
        expect((await claimJobs(t, QUEUED, LANE, 1, false)).rows.map((r) => r.id)).toEqual([id!]);
      });
    }
  });

  test("so is one made due by dueNow, and one queued again without delay", async () => {
    for (let i = 0; i < 20; i++) {
      await rolledBack(q.db, async (t) => {
        const id = await enqueue(t, { ...step(i), runAfter: later(), dedupeKey: "soon" });
        expect(await dueNow(t, "soon")).toBe(id);
        expect((await claimJobs(t, QUEUED, LANE, 1, false)).rows.map((r) => r.id)).toEqual([id!]);
      });
      await rolledBack(q.db, async (t) => {
        const id = await enqueue(t, { ...step(i), runAfter: later() });
        await requeue(t, sql`${job.id} = ${id}`, { error: { code: "TOOL_FAILED", message: "again" }, delayMs: 0 });
        expect((await claimJobs(t, QUEUED, LANE, 1, false)).rows.map((r) => r.id)).toEqual([id!]);
      });
    }
  });
});

describe("a claim's statement, built once per database", () => {
  // The claim is prepared on its first use; every later one must run with its own values (how
  // many, which lane, the limits, the lease), never the first one's. A lease is measured from the
  // transaction's start, so the bounds leave a slow machine tens of seconds and still tell 60 s from 600 s.
  const leaseSecs = (t: { leaseUntil: Date | null }) => Math.round(((t.leaseUntil?.getTime() ?? 0) - Date.now()) / 1000);

  test("takes each call's limit, lane and lease", async () => {
    await rolledBack(q.db, async (t) => {
      for (let i = 0; i < 4; i++) await enqueue(t, step(i));
      const one = await claimJobs(t, QUEUED, { lane: "control", perUser: 0, global: 0, leaseMs: 60_000 }, 1, false);
      expect(one.rows).toHaveLength(1);
      expect(one.more).toBe(true);
      expect(leaseSecs(one.rows[0])).toBeWithin(20, 61);
      const two = await claimJobs(t, QUEUED, { lane: "control", perUser: 0, global: 0, leaseMs: 600_000 }, 2, false);
      expect(two.rows).toHaveLength(2);
      expect(two.rows.map(leaseSecs).every((s) => s > 560 && s <= 600)).toBe(true);
      expect((await claimJobs(t, QUEUED, { lane: "outbound", perUser: 0, global: 0, leaseMs: 60_000 }, 5, false)).rows).toEqual([]);
      const last = await claimJobs(t, QUEUED, { lane: "control", perUser: 0, global: 0, leaseMs: 60_000 }, 5, false);
      expect(last.rows).toHaveLength(1);
      expect(last.more).toBe(false);
    });
  });

  test("a tool claim takes each call's per-user and global limits", async () => {
    await rolledBack(q.db, async (t) => {
      const userId = await insertUser(t);
      for (let i = 0; i < 3; i++) await insertToolJob(t, { userId, type: "pdf.rotate" });
      const tool = (perUser: number, global: number) => claimJobs(t, QUEUED, { lane: "tool", perUser, global, leaseMs: 60_000 }, 1, true);
      expect((await tool(1, 0)).rows).toHaveLength(1);
      // One runs: a per-user limit of 1 holds the next back (due work is still there), one of 2 lets it run.
      const held = await tool(1, 0);
      expect(held.rows).toEqual([]);
      expect(held.more).toBe(true);
      expect((await tool(2, 0)).rows).toHaveLength(1);
      expect((await tool(10, 2)).rows).toEqual([]);
      expect((await tool(10, 3)).rows).toHaveLength(1);
    });
  });
});

describe("many jobs in one statement", () => {
  test("come back in order, each with its own values, a held dedupe key's left out", async () => {
    await rolledBack(q.db, async (t) => {
      const userId = await insertUser(t);
      const later = new Date(Date.now() + 3_600_000);
      const items: AnyEnqueue[] = Array.from({ length: 600 }, (_, i) => ({ kind: "tool.run", userId, tool: { slug: "pdf.rotate", params: { degrees: 90, i }, inputFileIds: [`f${i}`] }, origin: "batch", batchId: "b1", position: i }));
      const entries: AnyEnqueue[] = [{ ...step(1), dedupeKey: "k", runAfter: later }, ...items, { ...step(2), dedupeKey: "k" }, step(3)];
      const rows = await enqueueAll(t, entries);
      expect(rows).toHaveLength(602);
      expect(rows[0]).toMatchObject({ kind: "workflow.step", lane: "control", type: "workflow.step", status: "queued", dedupeKey: "k", data: step(1).data, userId: null, origin: "system", attempts: 0, outputFileIds: [] });
      expect(rows[0].runAfter.getTime()).toBe(later.getTime());
      rows.slice(1, 601).forEach((r, i) => expect(r).toMatchObject({ kind: "tool.run", lane: "tool", type: "pdf.rotate", userId, params: { degrees: 90, i }, inputFileIds: [`f${i}`], batchId: "b1", position: i, origin: "batch", data: null, dedupeKey: null }));
      expect(rows[601]).toMatchObject({ kind: "workflow.step", data: step(3).data, dedupeKey: null });
      // Due at once: run_after is the statement's now, to the millisecond.
      expect(rows[601].runAfter.getTime()).toBeLessThanOrEqual(Date.now());
      expect(new Set(rows.map((r) => r.id)).size).toBe(602);
      expect((await t.select({ n: sql<number>`count(*)::int` }).from(job))[0].n).toBe(602);
    });
  });
});
