/**
 * On PostgreSQL, drizzle's queries run on prepared statements (DATABASE_PREPARE, on by default),
 * in transactions too; DATABASE_PREPARE=false runs them unnamed, for a pooler that cannot keep
 * them. DATABASE_POOL_MAX bounds the connections a process opens. Run by the suite's PostgreSQL
 * pass (scripts/test.ts); skipped on PGlite, whose own statements pglite-statements.test.ts checks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, resultRows, type Database } from "./client";
import { freshDatabase } from "./test-database";

const base = process.env.TEST_DATABASE_URL;
if (!base) console.warn("[postgres-prepare] skipped: no TEST_DATABASE_URL (the PostgreSQL pass runs it)");

let fresh: Awaited<ReturnType<typeof freshDatabase>>;
const dataDir = mkdtempSync(join(tmpdir(), "vektor-prepare-"));
beforeAll(async () => {
  if (base) fresh = await freshDatabase(base);
}, 60_000);
afterAll(async () => {
  await fresh?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** How many statements of this connection's session hold `marker`: run in the transaction, so on the connection that ran the queries. */
async function preparedHolding(database: Database, marker: string, run: (tx: Parameters<Parameters<Database["db"]["transaction"]>[0]>[0]) => Promise<unknown>): Promise<number> {
  return database.db.transaction(async (tx) => {
    await run(tx);
    const rows = resultRows<{ n: number }>(await tx.execute(sql`select count(*)::int as n from pg_prepared_statements where statement like ${`%${marker}%`} and statement not like '%pg_prepared_statements%'`));
    return rows[0].n;
  });
}

describe.skipIf(!base)("drizzle on PostgreSQL", () => {
  for (const prepare of [true, false]) {
    test(`DATABASE_PREPARE=${prepare}: ${prepare ? "a query, in a transaction too, is a prepared statement of its connection" : "no query is prepared"}`, async () => {
      const database = await openDatabase({ databaseUrl: fresh.url, dataDir, databasePrepare: prepare });
      try {
        const marker = `marker_${prepare}_${Date.now()}`;
        const query = (tx: { execute: Database["db"]["execute"] }) => tx.execute(sql`select ${marker}::text as ${sql.identifier(marker)}`);
        const count = await preparedHolding(database, marker, async (tx) => {
          for (let i = 0; i < 3; i++) expect(resultRows<Record<string, string>>(await query(tx))[0][marker]).toBe(marker);
        });
        expect(count).toBe(prepare ? 1 : 0);
      } finally {
        await database.close();
      }
    });
  }

  test("DATABASE_POOL_MAX bounds the connections: statements beyond it wait or share one, and all are answered", async () => {
    const backends = async (max: number) => {
      const database = await openDatabase({ databaseUrl: fresh.url, dataDir, databasePoolMax: max });
      try {
        const answers = await Promise.all(Array.from({ length: 6 }, () => database.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.05)`)));
        return new Set(answers.map((a) => resultRows<{ pid: number }>(a)[0].pid)).size;
      } finally {
        await database.close();
      }
    };
    expect(await backends(2)).toBeLessThanOrEqual(2);
    // The bound is what limits it: with room, six statements at once take six connections.
    expect(await backends(10)).toBe(6);
  });
});
