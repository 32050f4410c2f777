import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initPgliteInChild, openDatabase } from "./client";

// Each test runs PGlite's initdb: about 8 s here, over 35 s beside two CPU hogs, so each gets
// its own generous timeout; a hung initdb still fails.
const INITDB_TIMEOUT = 180_000;

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
  }, INITDB_TIMEOUT);
});

describe("initPgliteInChild", () => {
  test("a new directory is initialised by a child process; an existing database is left alone; a foreign folder is refused", async () => {
    const root = mkdtempSync(join(tmpdir(), "vektor-db-init-"));
    try {
      const dir = join(root, "db");
      await initPgliteInChild(dir, "8MB");
      expect(existsSync(join(dir, "PG_VERSION"))).toBe(true);
      expect(readdirSync(root)).toEqual(["db"]);
      const stamp = statSync(join(dir, "PG_VERSION")).mtimeMs;
      await initPgliteInChild(dir, "8MB");
      expect(statSync(join(dir, "PG_VERSION")).mtimeMs).toBe(stamp);
      const foreign = join(root, "foreign");
      mkdirSync(foreign);
      writeFileSync(join(foreign, "notes.txt"), "mine");
      await expect(initPgliteInChild(foreign, "8MB")).rejects.toThrow(/neither empty nor a database/);
      expect(readdirSync(foreign)).toEqual(["notes.txt"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, INITDB_TIMEOUT);
});
