/**
 * PGlite's upkeep, as Postgres's autovacuum decides it. PGlite is one standalone backend with no
 * autovacuum, and it runs on this process's thread: a VACUUM (ANALYZE) of the whole database
 * held every request for its length, 0.8 s with 200,000 jobs and files even when nothing had
 * changed (ANALYZE samples every table anew), every ten minutes. Here only the tables that
 * changed enough are vacuumed or analyzed, one statement at a time, and the process answers
 * requests between them.
 */
import type { PGlite } from "@electric-sql/pglite";

/**
 * Which tables need what, by autovacuum's default thresholds: dead rows above 50 + 20 % of the
 * table, rows inserted since the last vacuum above 1000 + 20 % (the visibility map that
 * index-only scans read), rows changed since the last analyze above 50 + 10 %; and a vacuum
 * long before transaction ids could wrap around.
 */
const DUE = `
  select quote_ident(s.schemaname) || '.' || quote_ident(s.relname) as name,
    (s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
      or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)
      or age(c.relfrozenxid) > 100000000) as vacuum,
    s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analyze
  from pg_stat_user_tables s join pg_class c on c.oid = s.relid
  order by s.relname`;

/** Vacuums and analyzes the tables that need it, letting other work run between statements; answers the statements run. */
export async function pgliteUpkeep(client: Pick<PGlite, "query" | "exec">): Promise<string[]> {
  // This backend's own counters, which it sends at most once a second, count too.
  await client.query("select pg_stat_force_next_flush()");
  const { rows } = await client.query<{ name: string; vacuum: boolean; analyze: boolean }>(DUE);
  // A vacuum and an analyze apart: each holds the thread for as long as it takes.
  const statements = rows.flatMap((t) => [...(t.vacuum ? [`VACUUM ${t.name}`] : []), ...(t.analyze ? [`ANALYZE ${t.name}`] : [])]);
  for (const statement of statements) {
    // A turn of the event loop: requests that arrived meanwhile get the database before the next statement.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await client.exec(statement);
  }
  return statements;
}
