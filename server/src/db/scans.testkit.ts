/**
 * For tests that a statement reads the rows it needs and not a whole table: the scans a piece of
 * work made of one table, and the rows they read, counted with the transaction's own statistics
 * (pg_stat_xact_user_tables) in a transaction rolled back at the end.
 */
import { sql } from "drizzle-orm";
import { resultRows, type Db } from "./client";
import { rolledBack } from "./rolled-back";

/** Scans of a table, and the rows they read. */
export interface Scans {
  seq: number;
  idx: number;
  rows: number;
}

/**
 * Runs `statements` in a transaction that is rolled back; answers the scans of `table` they made.
 * Counted as a difference: the view also holds this connection's scans of earlier transactions
 * not yet sent to the statistics (at most once a second, and never inside one).
 */
export async function scansOf(db: Db, table: string, statements: (t: Db) => Promise<void>): Promise<Scans> {
  const count = async (t: Db) =>
    resultRows<Scans>(await t.execute(sql`select seq_scan::int as seq, coalesce(idx_scan, 0)::int as idx, (seq_tup_read + coalesce(idx_tup_fetch, 0))::int as rows from pg_stat_xact_user_tables where relname = ${table}`))[0];
  return rolledBack(db, async (t) => {
    const before = await count(t);
    await statements(t);
    const after = await count(t);
    return { seq: after.seq - before.seq, idx: after.idx - before.idx, rows: after.rows - before.rows };
  });
}
