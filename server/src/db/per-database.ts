/**
 * A value built once per database and kept as long as it is: the prepared statements of the hot
 * paths (drizzle's `.prepare()` builds a statement's SQL once; its values then go as parameters).
 * A statement that also runs inside transactions is a reusable.ts one instead.
 */
import type { Db } from "./client";

export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) built.set(db, (value = build(db)));
    return value;
  };
}
