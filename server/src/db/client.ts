/**
 * The database connection, chosen at boot: PGlite (Postgres compiled to WASM) under
 * DATA_DIR/db by default, or a Postgres server when DATABASE_URL is set. Both speak the same
 * SQL and run the same drizzle migrations.
 */
import { PGlite, types, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import postgres from "postgres";
import { API_POOL_MAX } from "../env";
import { pgliteOptions } from "./pglite-options";
import { MAX_STATEMENTS, PgliteStatements } from "./pglite-statements";
import { pgliteUpkeep } from "./pglite-upkeep";
import { schema, type Schema } from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** An open transaction (what `db.transaction` hands its callback). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /**
   * Calls `fn` with each NOTIFY payload on `channel` (from any process sharing the database, this
   * one included); resolves to the unsubscribe.
   */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Routine upkeep, run by the retention job: PGlite is one standalone backend, with no
   * autovacuum, so the tables that changed enough are vacuumed and analyzed here, one at a time
   * (pglite-upkeep.ts: dead row versions reclaimed, the planner's statistics kept current); a
   * Postgres server's autovacuum does this itself.
   */
  maintain(): Promise<void>;
  close(): Promise<void>;
}

/** The rows of `db.execute`: postgres.js answers an array, PGlite `{ rows }`. */
export function resultRows<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

const migrationsFolder = join(import.meta.dir, "..", "..", "drizzle");
// Any fixed number: several processes booting against one Postgres take turns migrating.
const MIGRATION_LOCK = 727_001;

export async function openDatabase(opts: { databaseUrl: string | null; dataDir: string; pgliteSharedBuffers?: string; databasePrepare?: boolean; databasePoolMax?: number }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.databasePrepare ?? true, opts.databasePoolMax ?? API_POOL_MAX);
  return openPglite(join(opts.dataDir, "db"), opts.pgliteSharedBuffers ?? "16MB");
}

/**
 * PGlite keeps all of shared_buffers resident in its WASM memory: Postgres's default of 128MB
 * made an idle server ~100 MB bigger. Tables beyond it are read through the OS page cache.
 */
async function openPglite(dir: string, sharedBuffers: string): Promise<Database> {
  await initPgliteInChild(dir, sharedBuffers);
  // NodeFS, as PGlite picks for a directory, named here: it writes through, so nothing needs syncing after a query.
  const client = new PGlite({ fs: new NodeFS(dir), ...pgliteOptions(sharedBuffers), parsers: DRIZZLE_PARSERS });
  await client.waitReady;
  const db = drizzlePglite(drizzleClient(client, new PgliteStatements(client, MAX_STATEMENTS, false)), { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  return {
    db,
    kind: "pglite",
    listen: (channel, fn) => client.listen(channel, fn),
    maintain: async () => void (await pgliteUpkeep(client)),
    close: () => client.close(),
  };
}

/**
 * The parsers drizzle's PGlite driver passes with every query (dates and intervals stay text;
 * drizzle maps them itself). PGlite merges per-query parsers into a copy of its whole parser
 * table, which was 13 % of a file list's CPU: the instance gets them once instead, and
 * drizzleClient drops them from each query, so the results are the same.
 */
const keepText = (value: string) => value;
const DRIZZLE_PARSERS = Object.fromEntries([types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, keepText]));

function stripParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers) return options;
  const { parsers: _, ...rest } = options;
  return rest;
}

/**
 * `target` as drizzle sees it: its queries, a transaction's included, run on prepared statements
 * (pglite-statements.ts) and pass no per-query parsers.
 */
function drizzleClient<T extends PGlite | Transaction>(target: T, statements: PgliteStatements, inTransaction = false): T {
  return new Proxy(target, {
    get(t, prop) {
      if (prop === "query") {
        return (text: string, params?: unknown[], options?: QueryOptions) => {
          const rest = stripParsers(options);
          return statements.handles(rest) ? statements.query(text, params, rest, inTransaction) : t.query(text, params, rest);
        };
      }
      if (prop === "transaction" && "transaction" in t) {
        return <R>(fn: (tx: Transaction) => Promise<R>) => (t as PGlite).transaction((tx) => fn(drizzleClient(tx, statements, true)));
      }
      const value = Reflect.get(t, prop, t);
      // PGlite keeps its state in private fields: its methods must run on the real instance.
      return typeof value === "function" ? value.bind(t) : value;
    },
  });
}

async function openPostgres(url: string, prepare: boolean, max: number): Promise<Database> {
  const client = postgres(url, { max, onnotice: () => {} });
  const db = drizzlePostgres(preparing(client, prepare), { schema }) as unknown as Db;
  // The advisory lock lives on one reserved connection; the migration runs on the pool.
  const lock = await client.reserve();
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres(client), { migrationsFolder });
  } finally {
    await lock`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    lock.release();
  }
  return {
    db,
    kind: "postgres",
    async listen(channel, fn) {
      const { unlisten } = await client.listen(channel, fn);
      return unlisten;
    },
    maintain: async () => {},
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * A new PGlite directory is initialised (initdb) by a short-lived child process, into a temp
 * folder beside it that is renamed into place when done: initdb peaks at 650 MB to 1.1 GB
 * resident, which in this process would stay its high-water mark for good, and a crash half-way
 * leaves no half-made database behind. An existing database (PG_VERSION present) is left as is.
 */
export async function initPgliteInChild(dir: string, sharedBuffers: string): Promise<void> {
  if (existsSync(join(dir, "PG_VERSION"))) return;
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is neither empty nor a database: move it away or point DATA_DIR elsewhere`);
  const temp = join(dirname(dir), `.db-init-${process.pid}-${Date.now()}`);
  mkdirSync(temp, { recursive: true });
  try {
    const child = Bun.spawn([process.execPath, join(import.meta.dir, "pglite-init.ts"), temp, sharedBuffers], { stdout: "inherit", stderr: "inherit" });
    const code = await child.exited;
    if (code !== 0 || !existsSync(join(temp, "PG_VERSION"))) throw new Error(`initialising the embedded database failed (exit code ${code})`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(temp, dir);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

type PostgresSql = postgres.Sql | postgres.TransactionSql;

/**
 * `sql` with drizzle's queries on prepared statements when `prepare` (DATABASE_PREPARE): drizzle
 * asks postgres.js for an unnamed statement each time (parsed and planned anew), except for the
 * few it names. postgres.js keeps each connection's statements by text (connections are renewed
 * every 30 to 60 minutes, which bounds them) and prepares again one that a schema change
 * invalidated. The tool call's job insert took 0.6 ms prepared against 1.4 ms unnamed, after an
 * idle spell. Transactions and savepoints hand their own `sql`, wrapped the same way.
 */
function preparing<T extends PostgresSql>(sql: T, prepare: boolean): T {
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop === "unsafe") return (text: string, params?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) => target.unsafe(text, params, { ...options, prepare });
      if (prop === "begin" || prop === "savepoint") {
        const open = Reflect.get(target, prop, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => open(...args.map((a) => (typeof a === "function" ? (tx: PostgresSql) => a(preparing(tx, prepare)) : a)));
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

/** Round trip used by /api/health. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
