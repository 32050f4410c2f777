import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PGlite } from "@electric-sql/pglite";
import { MAX_STATEMENTS, PgliteStatements } from "./pglite-statements";

// One in-memory PGlite for the file (its initdb takes seconds); each test uses its own tables.
let pg: PGlite;
beforeAll(async () => {
  pg = new PGlite();
  await pg.waitReady;
}, 180_000);
afterAll(() => pg.close());

/** The statements PGlite holds prepared now. */
async function prepared(): Promise<string[]> {
  return (await pg.query<{ name: string }>("select name from pg_prepared_statements order by name")).rows.map((r) => r.name);
}

describe("PgliteStatements", () => {
  test("answers what PGlite's own query answers, for every column type the schema uses, as objects and as arrays", async () => {
    const s = new PgliteStatements(pg);
    await pg.exec(`create table kinds (id text primary key, n int, big bigint, ok boolean, doc jsonb, raw json, at timestamptz, bytes bytea, tags text[], gone text)`);
    const row = ["a", 7, 9_007_199_254_740_993n, true, { x: [1, "two"] }, [1, 2], new Date("2026-11-26T10:00:00Z"), new Uint8Array([0, 255, 7]), ["p", "q"], null];
    const insert = "insert into kinds values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning *";
    const viaStatements = await s.query(insert, row, undefined, false);
    const viaPglite = await pg.query("select * from kinds where id = $1", ["a"]);
    expect(viaStatements.rows).toEqual(viaPglite.rows);
    expect(viaStatements.fields).toEqual(viaPglite.fields);
    expect(viaStatements.affectedRows).toBe(1);
    const select = "select * from kinds where id = $1 and n > $2";
    for (const rowMode of ["object", "array"] as const) {
      const ours = await s.query(select, ["a", 1], { rowMode }, false);
      const theirs = await pg.query(select, ["a", 1], { rowMode });
      expect(ours.rows).toEqual(theirs.rows);
    }
    expect((await s.query(select, ["a", 100], undefined, false)).rows).toEqual([]);
  });

  test("each distinct text is prepared once and reused with any parameters", async () => {
    const s = new PgliteStatements(pg);
    await pg.exec("create table reuse (id int primary key)");
    const before = (await prepared()).length;
    for (let i = 0; i < 20; i++) await s.query("insert into reuse values ($1)", [i], undefined, false);
    const count = await s.query<{ n: number }>("select count(*)::int as n from reuse", [], undefined, false);
    expect(count.rows[0].n).toBe(20);
    expect(s.texts().length).toBe(2);
    expect((await prepared()).length).toBe(before + 2);
  });

  test("a refused query throws PGlite's error with its code and query, keeps nothing prepared, and the next query runs", async () => {
    const s = new PgliteStatements(pg);
    await pg.exec("create table uniq (id int primary key)");
    await s.query("insert into uniq values ($1)", [1], undefined, false);
    const dup = await s.query("insert into uniq values ($1)", [1], undefined, false).catch((e) => e);
    expect(dup.code).toBe("23505");
    expect(dup.query).toBe("insert into uniq values ($1)");
    const syntax = await s.query("selec nothing", [], undefined, false).catch((e) => e);
    expect(syntax.code).toBe("42601");
    expect(s.texts()).toEqual(["insert into uniq values ($1)"]);
    expect((await s.query<{ n: number }>("select count(*)::int as n from uniq", [], undefined, false)).rows[0].n).toBe(1);
  });

  test("inside a transaction: its queries see its writes, an error aborts it, a rollback undoes it", async () => {
    const s = new PgliteStatements(pg);
    await pg.exec("create table tx (id int primary key)");
    await pg.transaction(async () => {
      await s.query("insert into tx values ($1)", [1], undefined, true);
      expect((await s.query<{ n: number }>("select count(*)::int as n from tx", [], undefined, true)).rows[0].n).toBe(1);
    });
    const failed = await pg
      .transaction(async () => {
        await s.query("insert into tx values ($1)", [2], undefined, true);
        await s.query("insert into tx values ($1)", [1], undefined, true);
      })
      .catch((e) => e);
    expect(failed.code).toBe("23505");
    await pg.transaction(async (tx) => {
      await s.query("insert into tx values ($1)", [3], undefined, true);
      await tx.rollback();
    });
    expect((await s.query<{ id: number }>("select id from tx order by id", [], undefined, false)).rows).toEqual([{ id: 1 }]);
  });

  test("past its bound the least recently used statements are closed, in PGlite too", async () => {
    const s = new PgliteStatements(pg, 3);
    const before = await prepared();
    for (const n of [1, 2, 3, 1, 4, 5]) await s.query(`select ${n} as n`, [], undefined, false);
    // 1 was used again after 2 and 3, so those two went
    expect(s.texts()).toEqual(["select 1 as n", "select 4 as n", "select 5 as n"]);
    // The closes go with the next message: one more query, then PGlite holds the bound and no more.
    expect((await s.query<{ n: number }>("select 1 as n", [], undefined, false)).rows[0].n).toBe(1);
    const added = (await prepared()).filter((name) => !before.includes(name));
    expect(added.length).toBe(3);
  });

  test("a table altered under a prepared statement is prepared again, and answers its new columns", async () => {
    const s = new PgliteStatements(pg);
    await pg.exec("create table altered (id int primary key); insert into altered values (1)");
    expect((await s.query("select * from altered", [], undefined, false)).rows).toEqual([{ id: 1 }]);
    await pg.exec("alter table altered add column label text default 'x'");
    expect((await s.query("select * from altered", [], undefined, false)).rows).toEqual([{ id: 1, label: "x" }]);
  });

  test("a notification sent by a prepared query reaches PGlite's listeners", async () => {
    const s = new PgliteStatements(pg);
    const heard: string[] = [];
    const unlisten = await pg.listen("vk_test", (payload) => heard.push(payload));
    await s.query("select pg_notify('vk_test', $1)", ["hello"], undefined, false);
    // Delivered as the query's messages are read; waited for generously in case it comes a tick later.
    for (const until = Date.now() + 5000; heard.length === 0 && Date.now() < until; ) await Bun.sleep(10);
    await unlisten();
    expect(heard).toEqual(["hello"]);
  });

  test("a query outside a transaction syncs PGlite's file system, unless told it writes through; one inside never does", async () => {
    let syncs = 0;
    const sync = pg.syncToFs.bind(pg);
    pg.syncToFs = () => (syncs++, sync());
    try {
      await pg.exec("create table synced (id int primary key)");
      const counted = async (s: PgliteStatements, inTransaction: boolean) => {
        syncs = 0;
        await s.query("insert into synced values ($1) on conflict do nothing", [1], undefined, inTransaction);
        return syncs;
      };
      expect(await counted(new PgliteStatements(pg), false)).toBe(1);
      expect(await counted(new PgliteStatements(pg, MAX_STATEMENTS, false), false)).toBe(0);
      expect(await pg.transaction(async () => counted(new PgliteStatements(pg), true))).toBe(0);
      expect((await pg.query<{ n: number }>("select count(*)::int as n from synced")).rows[0].n).toBe(1);
    } finally {
      pg.syncToFs = sync;
    }
  });
});
