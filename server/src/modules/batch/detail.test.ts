/**
 * A batch's detail reads its own items and their files, not the whole file table, however many
 * files other users keep: counted with the transaction's own statistics (db/scans.testkit.ts).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { ConfigService } from "../../config/service";
import { scansOf } from "../../db/scans.testkit";
import { batch, file } from "../../db/schema";
import { newId } from "../../lib/ids";
import { enqueueAll } from "../../queue/enqueue";
import { insertUser, openTestQueue, SETUP_TIMEOUT, type TestQueue } from "../../queue/queue.testkit";
import { BatchService } from "./service";

let q: TestQueue;
beforeAll(async () => void (q = await openTestQueue()), SETUP_TIMEOUT);
afterAll(() => q?.close());

/** `n` uploaded files of `userId`; answers their ids. */
async function files(userId: string, n: number, name: string): Promise<string[]> {
  const rows = Array.from({ length: n }, (_, i) => ({ id: newId("f"), userId, filename: `${name}${i}.pdf`, mime: "application/pdf", size: 100, status: "UPLOADED" as const, storageKey: `k/${name}${i}`, uploadedAt: new Date() }));
  for (let i = 0; i < n; i += 2000) await q.db.insert(file).values(rows.slice(i, i + 2000));
  return rows.map((r) => r.id);
}

test("a batch of 3,000 items among 30,000 files: its detail reads its items' files only", async () => {
  const other = await insertUser(q.db);
  await files(other, 30_000, "other");
  const me = await insertUser(q.db);
  const inputs = await files(me, 3000, "mine");
  const batchId = newId("b");
  await q.db.insert(batch).values({ id: batchId, userId: me, name: "big", type: "pdf.rotate", engine: "server", params: {}, credits: 0, perFileCredits: 0, total: inputs.length });
  await enqueueAll(q.db, inputs.map((id, position) => ({ kind: "tool.run" as const, userId: me, tool: { slug: "pdf.rotate", params: {}, inputFileIds: [id] }, origin: "batch" as const, batchId, position })));
  await q.db.execute(sql`analyze`);
  const scans = await scansOf(q.db, "file", async (t) => {
    const detail = await new BatchService(t, new ConfigService(t)).detail(me, batchId);
    expect(detail.files).toHaveLength(3000);
    expect(detail.files.slice(0, 2).map((f) => f.filename)).toEqual(["mine0.pdf", "mine1.pdf"]);
  });
  expect(scans.seq).toBe(0);
  // One row per item, by its key: not the other user's 30,000.
  expect(scans.rows).toBeLessThanOrEqual(3000);
}, 120_000);
