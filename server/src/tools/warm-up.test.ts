/**
 * The boot's warm-up (warm-up.ts) runs a tool call's statements all the way through and leaves
 * nothing behind: no row, no notification, and the rows that were there stay as they were.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { resultRows } from "../db/client";
import { file } from "../db/schema";
import { clearQueue, insertToolJob, insertUser, jobRow, openTestQueue, SETUP_TIMEOUT, uploadPdf, waitFor, type TestQueue } from "../queue/queue.testkit";
import { warmUpToolCalls } from "./warm-up";

let q: TestQueue;
beforeAll(async () => void (q = await openTestQueue()), SETUP_TIMEOUT);
afterAll(() => q?.close());
beforeEach(() => clearQueue(q.db));

async function counts() {
  return resultRows<{ users: number; files: number; jobs: number }>(
    await q.db.execute(sql`select (select count(*) from "user")::int as users, (select count(*) from file)::int as files, (select count(*) from job)::int as jobs`),
  )[0];
}

async function fileRow(id: string) {
  return (await q.db.select().from(file).where(eq(file.id, id)))[0];
}

/** The channel's notifications from here on, and a way to wait until everything sent before a marker has arrived. */
async function heard() {
  const got: string[] = [];
  const unlisten = await q.listen("vektor_jobs", (payload) => got.push(payload));
  let markers = 0;
  const settle = async () => {
    const marker = `marker-${++markers}`;
    await q.db.execute(sql`select pg_notify('vektor_jobs', ${marker})`);
    await waitFor(marker, async () => got.includes(marker));
    return got.splice(0).filter((p) => p !== marker);
  };
  return { settle, unlisten };
}

test("every call records its success, and no row of theirs is left; the rows there were are unchanged", async () => {
  const userId = await insertUser(q.db);
  const input = await uploadPdf(q, userId, 1);
  const [before, inputBefore] = [await counts(), await fileRow(input)];
  expect(await warmUpToolCalls(q.db, 25)).toBe(25);
  expect(await counts()).toEqual(before);
  expect(await fileRow(input)).toEqual(inputBefore);
});

test("with a tool job waiting, the calls are queued behind it: none runs, nobody is woken, the waiting job stays queued", async () => {
  const userId = await insertUser(q.db);
  const input = await uploadPdf(q, userId, 1);
  const waiting = await insertToolJob(q.db, { userId, type: "pdf.rotate", params: { degrees: 90 }, inputFileIds: [input] });
  const channel = await heard();
  try {
    await channel.settle(); // the waiting job's own wake-up
    expect(await warmUpToolCalls(q.db, 12)).toBe(0);
    expect(await channel.settle()).toEqual([]);
    expect((await jobRow(q.db, waiting)).status).toBe("queued");
  } finally {
    await channel.unlisten();
  }
});
