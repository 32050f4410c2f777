/**
 * The database connection, chosen at boot: PGlite (Postgres compiled to WASM) under
 * DATA_DIR/db by default, or a Postgres server when DATABASE_URL is set. Both speak the same
 * SQL and run the same drizzle migrations.
 */
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { join } from "node:path";
import postgres from "postgres";
import { schema, type Schema } from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

const migrationsFolder = join(import.meta.dir, "..", "..", "drizzle");
// Any fixed number: several processes booting against one Postgres take turns migrating.
const MIGRATION_LOCK = 727_001;

export async function openDatabase(opts: { databaseUrl: string | null; dataDir: string; pgliteSharedBuffers?: string }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(join(opts.dataDir, "db"), opts.pgliteSharedBuffers ?? "16MB");
}

/**
 * PGlite keeps all of shared_buffers resident in its WASM memory: Postgres's default of 128MB
 * made an idle server ~100 MB bigger. Tables beyond it are read through the OS page cache.
 */
async function openPglite(dir: string, sharedBuffers: string): Promise<Database> {
  const client = new PGlite(dir, { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`] });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  return { db, kind: "pglite", close: () => client.close() };
}

async function openPostgres(url: string): Promise<Database> {
  const client = postgres(url, { max: 10, onnotice: () => {} });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  // The advisory lock lives on one reserved connection; the migration runs on the pool.
  const lock = await client.reserve();
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres(client), { migrationsFolder });
  } finally {
    await lock`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    lock.release();
  }
  return { db, kind: "postgres", close: () => client.end({ timeout: 5 }) };
}

/** Round trip used by /api/health. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
