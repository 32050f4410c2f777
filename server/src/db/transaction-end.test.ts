/** Hooks told how their transaction ended (transaction-end.ts), on the real database. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { openTestQueue, SETUP_TIMEOUT, type TestQueue } from "../queue/queue.testkit";
import { resultRows } from "./client";
import { onTransactionEnd, transactionWithEnd } from "./transaction-end";

let q: TestQueue;
beforeAll(async () => {
  q = await openTestQueue();
  await q.db.execute(sql`create table end_hook_probe (id text primary key)`);
}, SETUP_TIMEOUT);
afterAll(() => q?.close());

const seen = (id: string) => q.db.execute(sql`select count(*)::int as n from end_hook_probe where id = ${id}`).then((r) => resultRows<{ n: number }>(r)[0].n);

describe("a transaction's end hooks", () => {
  test("run after the commit, seeing what it wrote; told false after a rollback, whose error still reaches the caller", async () => {
    const ends: [boolean, number][] = [];
    let read: Promise<unknown> | null = null;
    await transactionWithEnd(q.db, async (tx) => {
      await tx.execute(sql`insert into end_hook_probe values ('end-hook-committed')`);
      expect(onTransactionEnd(tx, (committed) => void (read = seen("end-hook-committed").then((n) => ends.push([committed, n]))))).toBe(true);
    });
    await read;
    expect(ends).toEqual([[true, 1]]);
    const failed = transactionWithEnd(q.db, async (tx) => {
      await tx.execute(sql`insert into end_hook_probe values ('end-hook-rolled-back')`);
      onTransactionEnd(tx, (committed) => ends.push([committed, -1]));
      throw new Error("no");
    });
    await expect(failed).rejects.toThrow("no");
    expect(ends).toEqual([[true, 1], [false, -1]]);
    expect(await seen("end-hook-rolled-back")).toBe(0);
  });

  test("a transaction not opened for them keeps none: onTransactionEnd answers false", async () => {
    await q.db.transaction(async (tx) => {
      expect(onTransactionEnd(tx, () => {})).toBe(false);
    });
    await transactionWithEnd(q.db, async (tx) => {
      await tx.transaction(async (nested) => expect(onTransactionEnd(nested, () => {})).toBe(false));
    });
  });
});
