import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "./client";

describe("openDatabase (PGlite)", () => {
  test("applies shared_buffers and the migrations", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "vektor-db-"));
    mkdirSync(join(dataDir, "db"));
    const database = await openDatabase({ databaseUrl: null, dataDir, pgliteSharedBuffers: "8MB" });
    try {
      const rows = (await database.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
      expect(rows.rows[0].shared_buffers).toBe("8MB");
      const tables = (await database.db.execute(sql`select count(*)::int as n from information_schema.tables where table_name in ('job', 'file', 'batch')`)) as unknown as { rows: { n: number }[] };
      expect(tables.rows[0].n).toBe(3);
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
