/**
 * Answers of the reads every screen and poll repeats (a user's file list, a run's detail), kept
 * in memory for READ_CACHE_MS and dropped as soon as a table they were read from changes. Every
 * process hears of each change from the table's statement trigger (NOTIFY `vektor_tables`,
 * migration 0009, through Invalidations' `table` topic): the others usually within
 * milliseconds, this one before a request that wrote is answered (PGlite delivers a notification
 * with the statement that sent it; over PostgreSQL the answer waits for Invalidations.caughtUp),
 * so a caller always reads its own writes. The lifetime bounds a lost notification.
 *
 * A read that overlapped a change is returned but not kept (see lib/cache.ts).
 */
import { Cache } from "../lib/cache";

export class ReadCache extends Cache<unknown> {
  constructor(ttlMs: number, max = 5000) {
    super(ttlMs, max);
  }

  /** The answer kept under `key`, or `load`'s, kept when no table of `tables` changed meanwhile. */
  read<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
    return this.get(key, load, { tags: tables }) as Promise<T>;
  }

  /** `table` changed: every answer read from it is dropped. */
  changed(table: string): void {
    this.invalidate(table);
  }
}
