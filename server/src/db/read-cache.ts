/**
 * Answers of the reads every screen and poll repeats (a user's file list, a run's detail), kept
 * in memory for READ_CACHE_MS and dropped as soon as a table they were read from changes:
 *
 * - in this process, when the statement that wrote it has finished (after its transaction
 *   committed), so a caller always reads its own writes: db/client.ts wraps the database
 *   drivers and reports those writes (Invalidations' `table` topic);
 * - in the other processes on the same PostgreSQL, when the NOTIFY of the table's trigger
 *   arrives (migration 0009), usually within milliseconds; the lifetime bounds a lost one.
 *
 * A read that overlapped a change is returned but not kept (a generation per table).
 */
export class ReadCache {
  private readonly entries = new Map<string, { value: unknown; until: number }>();
  private readonly keysByTable = new Map<string, Set<string>>();
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly max = 5000,
  ) {}

  /** The answer kept under `key`, or `load`'s, kept when no table of `tables` changed meanwhile. */
  async read<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.until > Date.now()) return hit.value as T;
    const before = tables.map((t) => this.generations.get(t) ?? 0);
    const value = await load();
    if (this.ttlMs > 0 && tables.every((t, i) => (this.generations.get(t) ?? 0) === before[i])) this.keep(key, tables, value);
    return value;
  }

  /** `table` changed: every answer read from it is dropped. */
  changed(table: string): void {
    this.generations.set(table, (this.generations.get(table) ?? 0) + 1);
    const keys = this.keysByTable.get(table);
    if (!keys) return;
    for (const key of keys) this.entries.delete(key);
    keys.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private keep(key: string, tables: readonly string[], value: unknown): void {
    if (this.entries.size >= this.max) {
      this.entries.clear();
      for (const keys of this.keysByTable.values()) keys.clear();
    }
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
    for (const t of tables) {
      let keys = this.keysByTable.get(t);
      if (!keys) this.keysByTable.set(t, (keys = new Set()));
      keys.add(key);
    }
  }
}

/** The tables whose reads are cached; their triggers notify every process of a change. */
export const CACHED_TABLES = ["file", "workflow_run", "workflow_step", "workflow_approval", "delivery"] as const;

const READ_ONLY = /^\s*(select|show|explain)\b/i;
const MENTIONS = new RegExp(`(?:"|\\b)(${CACHED_TABLES.join("|")})(?:"|\\b)`, "g");

/**
 * The cached tables a statement may have written: none for a SELECT, otherwise every cached table
 * it names (a false alarm only costs a reread).
 */
export function writtenTables(text: string): string[] {
  if (READ_ONLY.test(text)) return [];
  const found = new Set<string>();
  for (const m of text.matchAll(MENTIONS)) found.add(m[1]!);
  return [...found];
}
