/**
 * The approvals inbox reads the caller's approvals, a page at a time, however many other users
 * have: counted with the transaction's own statistics (db/scans.testkit.ts).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { scansOf } from "../../db/scans.testkit";
import { workflow, workflowApproval, workflowRun } from "../../db/schema";
import { newId } from "../../lib/ids";
import { insertUser, openTestQueue, SETUP_TIMEOUT, type TestQueue } from "../../queue/queue.testkit";
import { listApprovals } from "./lists";

let q: TestQueue;
beforeAll(async () => void (q = await openTestQueue()), SETUP_TIMEOUT);
afterAll(() => q?.close());

/** `count` runs of a new workflow of `userId`, each with an approval requested a second after the last; answers the runs' ids, oldest first. */
async function approvals(userId: string, count: number, status: "pending" | "approved"): Promise<string[]> {
  const workflowId = newId("wf");
  await q.db.insert(workflow).values({ id: workflowId, userId, name: "w", graphJson: "{}", versionId: newId("wv") });
  const runs = Array.from({ length: count }, () => ({
    id: newId("run"),
    workflowId,
    userId,
    versionId: "v",
    status: "waiting_approval" as const,
    trigger: "manual" as const,
    plan: { nodes: [], edges: [] },
    inputFileIds: [],
    credits: 0,
    perStepCredits: 0,
  }));
  const start = Date.now() - count * 1000;
  const rows = runs.map((run, i) => ({ id: newId("apr"), runId: run.id, userId, nodeId: "ok", status, requestedAt: new Date(start + i * 1000), expiresAt: new Date(start + i * 1000 + 60_000) }));
  for (let i = 0; i < count; i += 1000) {
    await q.db.insert(workflowRun).values(runs.slice(i, i + 1000));
    await q.db.insert(workflowApproval).values(rows.slice(i, i + 1000));
  }
  return runs.map((r) => r.id);
}

test("a page of the approvals inbox reads the caller's page, not every user's approvals", async () => {
  const other = await insertUser(q.db);
  const me = await insertUser(q.db);
  await approvals(other, 5000, "approved");
  await approvals(other, 1000, "pending");
  const mine = await approvals(me, 1000, "pending");
  await q.db.execute(sql`analyze`);
  let cursor: string | undefined;
  const listed: string[] = [];
  for (let page = 0; page < 2; page++) {
    const scans = await scansOf(q.db, "workflow_approval", async (t) => {
      const { items, nextCursor } = await listApprovals(t, me, "pending", 50, cursor);
      listed.push(...items.map((a) => a.runId));
      cursor = nextCursor ?? undefined;
    });
    // The page and the row that says another follows: not the other user's 6,000.
    expect(scans.rows).toBeLessThanOrEqual(60);
  }
  expect(listed).toEqual(mine.toReversed().slice(0, 100));
  const all = await scansOf(q.db, "workflow_approval", async (t) => {
    expect((await listApprovals(t, me, "all", 50, undefined)).items).toHaveLength(50);
  });
  expect(all.rows).toBeLessThanOrEqual(60);
}, 60_000);
