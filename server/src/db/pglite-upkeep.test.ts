import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PGlite } from "@electric-sql/pglite";
import { pgliteUpkeep } from "./pglite-upkeep";

// One in-memory PGlite for the file (its initdb takes seconds); the tests run in order on it.
let pg: PGlite;
beforeAll(async () => {
  pg = new PGlite();
  await pg.waitReady;
  for (const t of ["busy", "calm", "other"]) await pg.exec(`create table ${t} (id int primary key, v text)`);
}, 180_000);
afterAll(() => pg.close());

/** The backend's pending counters reach pg_stat_user_tables (it sends them at most once a second on its own). */
async function flushStats(): Promise<void> {
  await pg.query("select pg_stat_force_next_flush()");
  await pg.query("select 1");
}

const deadRows = async (table: string) => (await pg.query<{ n: number }>("select n_dead_tup::int as n from pg_stat_user_tables where relname = $1", [table])).rows[0].n;

describe("pgliteUpkeep", () => {
  test("vacuums and analyzes the tables that changed enough, and only those", async () => {
    await pg.exec("insert into busy select g, 'x' from generate_series(1, 5000) g; insert into calm select g, 'x' from generate_series(1, 10) g");
    await flushStats();
    // First upkeep: the 5000 rows inserted call for a vacuum and an analyze; 10 rows are below every threshold.
    expect(await pgliteUpkeep(pg)).toEqual(["VACUUM public.busy", "ANALYZE public.busy"]);
    await pg.exec("delete from busy where id <= 2000");
    await flushStats();
    expect(await deadRows("busy")).toBe(2000);
    expect(await pgliteUpkeep(pg)).toEqual(["VACUUM public.busy", "ANALYZE public.busy"]);
    await flushStats();
    expect(await deadRows("busy")).toBe(0);
  });

  test("does nothing when nothing changed", async () => {
    expect(await pgliteUpkeep(pg)).toEqual([]);
  });

  test("a table changed a little is analyzed, not vacuumed", async () => {
    // 3000 live rows: 400 updated is above the analyze threshold (50 + 300), below the vacuum one (50 + 600).
    await pg.exec("update busy set v = 'y' where id <= 2400");
    // No flush here: upkeep sends the backend's counters itself before it reads them.
    expect(await pgliteUpkeep(pg)).toEqual(["ANALYZE public.busy"]);
  });

  test("other work runs between two statements of upkeep", async () => {
    await pg.exec("delete from busy where id <= 3000; insert into other select g, 'x' from generate_series(1, 5000) g");
    await flushStats();
    let finished = false;
    const upkeep = pgliteUpkeep(pg).then((done) => {
      finished = true;
      return done;
    });
    // A timer due at once: with the whole database in one statement it ran only once upkeep was over.
    const ranWhileBusy = await new Promise<boolean>((resolve) => setTimeout(() => resolve(!finished), 0));
    expect(await upkeep).toEqual(["VACUUM public.busy", "ANALYZE public.busy", "VACUUM public.other", "ANALYZE public.other"]);
    expect(ranWhileBusy).toBe(true);
  });
});
