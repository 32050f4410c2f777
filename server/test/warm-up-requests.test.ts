/**
 * The boot's warm-up of the tool call path (src/tools/warm-up-requests.ts): real calls through the
 * app that no rate limit counts, that leave no row and no object behind (a crashed warm-up's too),
 * and that never join a tool queue with work in it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, like, sql } from "drizzle-orm";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { resultRows } from "../src/db/client";
import { file, job, user } from "../src/db/schema";
import { newId } from "../src/lib/ids";
import { insertToolJob } from "../src/queue/queue.testkit";
import { WARM_UP_DOMAIN } from "../src/tools/warm-up";
import { warmUpRequests } from "../src/tools/warm-up-requests";
import { makePdf } from "./fixtures";
import { startTestServer, type TestServer } from "./harness";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
}, 60_000);
afterAll(() => srv?.close());

const db = () => srv.services.database.db;

async function counts() {
  return resultRows<{ users: number; files: number; jobs: number; tokens: number }>(
    await db().execute(sql`select (select count(*) from "user")::int as users, (select count(*) from file)::int as files, (select count(*) from job)::int as jobs, (select count(*) from api_token)::int as tokens`),
  )[0];
}

/** Every object the local store holds, by path. */
function objects(): string[] {
  return readdirSync(join(srv.dataDir, "objects"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

test("every call succeeds through the app, past a rate limit it would exceed, and leaves no row and no object", async () => {
  const admin = await srv.admin();
  await admin.admin.setConfig("platform_configs", { "ratelimit.per_minute": 5 });
  try {
    const [before, stored] = [await counts(), objects()];
    expect(await warmUpRequests(srv.app, srv.services, 12)).toBe(12);
    expect(await counts()).toEqual(before);
    expect(objects()).toEqual(stored);
  } finally {
    await admin.admin.setConfig("platform_configs", { "ratelimit.per_minute": 1000 });
  }
}, 60_000);

test("the user of a warm-up cut short, its files and their objects are deleted by the next one", async () => {
  const [before, stored] = [await counts(), objects()];
  const userId = newId("warmup");
  await db().insert(user).values({ id: userId, name: "warm-up", email: `${userId}@${WARM_UP_DOMAIN}` });
  const fileId = newId("f");
  const storageKey = `u/${userId}/${fileId}`;
  const bytes = await makePdf(1);
  await srv.services.store.put(storageKey, new Response(bytes).body!);
  await db().insert(file).values({ id: fileId, userId, filename: "warm-up.pdf", mime: "application/pdf", size: bytes.byteLength, status: "UPLOADED", storageKey, uploadedAt: new Date() });
  expect(objects().length).toBe(stored.length + 1);
  expect(await warmUpRequests(srv.app, srv.services, 0)).toBe(0);
  expect(await db().select().from(user).where(like(user.email, `%@${WARM_UP_DOMAIN}`))).toEqual([]);
  expect(await counts()).toEqual(before);
  expect(objects()).toEqual(stored);
});

test("with a tool job queued, no call is made and the job stays as it was", async () => {
  const c = await srv.user();
  const me = await c.account();
  const { fileId } = await c.files.upload(new Blob([await makePdf(1)]), { filename: "a.pdf", mime: "application/pdf" });
  // Queued and due in an hour, in one transaction: no lane of the server's claims it meanwhile.
  const waiting = await db().transaction(async (tx) => {
    const id = (await insertToolJob(tx as never, { userId: me.id, type: "pdf.rotate", params: { degrees: 90 }, inputFileIds: [fileId] }))!;
    await tx.update(job).set({ runAfter: new Date(Date.now() + 3_600_000) }).where(eq(job.id, id));
    return id;
  });
  try {
    const before = await counts();
    expect(await warmUpRequests(srv.app, srv.services, 5)).toBe(0);
    expect(await counts()).toEqual(before);
    expect((await db().select({ status: job.status }).from(job).where(eq(job.id, waiting)))[0].status).toBe("queued");
  } finally {
    await db().delete(job).where(eq(job.id, waiting));
  }
});
