/**
 * A statement whose SQL is built once and then run on the database or in any transaction.
 * drizzle's `.prepare()` binds a statement to the database or transaction it was built on, and a
 * transaction lives for one call: the workflow engine, whose every transition is a transaction,
 * built each of its statements again on every use (query builder -> SQL text, about 37 times in
 * a 5-step run, a fifth of a PGlite server's CPU under a workflow load).
 *
 * Here the builder runs once (per dialect) against a session that only records what drizzle
 * hands it (SQL text, parameters with their placeholders and column encoders, result fields);
 * each call hands the same to the executor's own session, as the builder's own `execute` would.
 * So `build` must close over nothing that varies: every value goes as `sql.placeholder(name)`.
 * A placeholder set into a column (`set`, `values`) is encoded by that column (JSON, dates) when
 * filled; elsewhere it goes as given. These are drizzle internals (`_prepare`, a session's
 * `prepareQuery`, an executor's `session` and `dialect`), pinned by drizzle-orm's version and
 * checked by reusable.test.ts on both databases.
 */
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db, Tx } from "./client";

type Executor = Db | Tx;

/**
 * A placeholder set into a column (`set`, `values`): filled through that column's encoder (JSON,
 * dates) when run. drizzle's types take only values or SQL in `set`, though it handles this.
 */
export const into = (name: string) => sql.placeholder(name) as unknown as SQL;

/** What drizzle's builders have: `_prepare` hands their SQL, fields and mapping to `session.prepareQuery`. */
interface Builder {
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

interface PreparedQuery {
  joinsNotNullableMap?: unknown;
  execute(values: Record<string, unknown>): Promise<unknown>;
  setToken?(token: unknown): PreparedQuery;
}

interface Session {
  prepareQuery(...args: unknown[]): PreparedQuery;
}

interface Internals {
  session: Session;
  dialect: object;
}

/** What `_prepare` handed the session: replayed for every call. */
interface Recorded {
  args: unknown[];
  joinsNotNullableMap: unknown;
}

/** `build` (values as placeholders) run once per dialect; the answer runs it in `executor` with `values`. */
export function reusable<B extends Builder>(build: (db: Executor) => B): (executor: Executor, values?: Record<string, unknown>) => ReturnType<B["execute"]> {
  const recorded = new WeakMap<object, Recorded>();
  // The prepared query of each session, as drizzle's own `.prepare()` keeps one: the database's
  // lives as long as it does, a transaction's goes with it. Making one anew on every call (on
  // PGlite, two parser tables of nine closures each) was 0.05 ms of a tool call's job insert.
  const prepared = new WeakMap<object, PreparedQuery>();
  const prepare = (executor: Executor): PreparedQuery => {
    const { session, dialect } = executor as unknown as Internals;
    let statement = recorded.get(dialect);
    if (!statement) recorded.set(dialect, (statement = record(build(executor))));
    const query = session.prepareQuery(...statement.args);
    query.joinsNotNullableMap = statement.joinsNotNullableMap;
    prepared.set(session, query);
    return query;
  };
  return (executor, values = {}) => {
    const query = prepared.get((executor as unknown as Internals).session) ?? prepare(executor);
    return query.execute(values) as ReturnType<B["execute"]>;
  };
}

/** Runs the builder's `_prepare` against a session that keeps its arguments instead of preparing. */
function record(builder: Builder): Recorded {
  let args: unknown[] | null = null;
  const stand: PreparedQuery = { execute: () => Promise.reject(new Error("a recorded statement is not run")), setToken: () => stand };
  const target = builder as unknown as { session: Session; _prepare(): PreparedQuery };
  target.session = {
    prepareQuery: (...given: unknown[]) => {
      args = given;
      return stand;
    },
  };
  const made = target._prepare();
  if (!args) throw new Error("drizzle's builder did not prepare through its session: reusable() needs updating for this drizzle-orm");
  return { args, joinsNotNullableMap: made.joinsNotNullableMap };
}

/** One reusable statement per `key` (the columns a write sets, say), each built the first time its key is used. */
export function reusableFamily<B extends Builder>(build: (db: Executor, key: string) => B): (key: string) => ReturnType<typeof reusable<B>> {
  const family = new Map<string, ReturnType<typeof reusable<B>>>();
  return (key) => {
    let statement = family.get(key);
    if (!statement) family.set(key, (statement = reusable((db) => build(db, key))));
    return statement;
  };
}

/** The columns `values` sets, as a reusableFamily key (undefined ones left out, as drizzle's `set` leaves them out). */
export function columnsOf(values: object): string {
  return Object.entries(values)
    .flatMap(([column, value]) => (value === undefined ? [] : [column]))
    .sort()
    .join(",");
}

/** What `set` takes for a key of columnsOf: each column from the placeholder of its name. */
export function intoColumns(columns: string): Record<string, SQL> {
  return Object.fromEntries(columns.split(",").map((column) => [column, into(column)]));
}

/**
 * `column` is one of the ids in placeholder `name`, given as JSON text (JSON.stringify(ids)):
 * one statement for any number of ids, where `inArray` makes one per length. `= any(array(...))`,
 * not `in (select ...)`: Postgres planned the IN as a hash join over the whole table.
 */
export function inJsonList(column: AnyPgColumn, name: string): SQL {
  return sql`${column} = any(array(select jsonb_array_elements_text(${sql.placeholder(name)}::jsonb)))`;
}
