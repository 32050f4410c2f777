/**
 * The one in-memory cache of the server (callers, configuration, hot reads, health checks):
 *
 * - a value is kept for a lifetime (`ttlMs`, shortened per value by `until`);
 * - callers asking for a key while it loads share that load (single flight);
 * - `invalidate(tag)` drops every value tagged with it, and a load that began before the
 *   invalidation is answered to its callers but not kept (the generation guard), so a change that
 *   has been acknowledged is never hidden by a read that overlapped it;
 * - what feeds `invalidate` is the owner's business: each cache follows one named topic of
 *   db/invalidations.ts (a tag is then that topic's key: a table, an account), or none.
 */

/** How a loaded value is kept: tagged with `tags`, never past `until` (epoch ms). */
export interface Keep {
  tags?: readonly string[];
  until?: number | null;
}

/** Per value: how to keep it, or false to answer it without keeping it. */
export type KeepRule<V> = Keep | ((value: V) => Keep | false | null);

interface Entry<V> {
  value: V;
  until: number;
  tags: readonly string[];
}

interface Flight<V> {
  promise: Promise<V>;
  /** Its tags when known before it runs; undefined: any invalidation detaches it. */
  tags: readonly string[] | undefined;
  startedAt: number;
}

/**
 * A load is shared for this long at most; a caller after that starts its own. A query that never
 * settles (a connection lost mid-write while PostgreSQL restarted) then hangs only the requests
 * that joined it early, not every later request for the same key.
 */
const SHARE_FLIGHT_MS = 10_000;

export class Cache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly flights = new Map<string, Flight<V>>();
  private readonly keysByTag = new Map<string, Set<string>>();
  /** Counts invalidations; a load remembers the count it began at. */
  private generation = 0;
  /** The generation of each tag's last invalidation, while a load that began earlier may still run. */
  private readonly invalidatedAt = new Map<string, number>();
  private everythingAt = 0;
  private running = 0;
  /** The latest end of a value kept: past it, nothing kept is fresh. */
  private freshUntil = 0;

  /** `max` bounds memory under a flood of distinct keys (all are dropped when it is reached). */
  constructor(
    private readonly ttlMs: number,
    private readonly max = 10_000,
  ) {}

  /** The value kept under `key` while it is fresh, else undefined. */
  peek(key = ""): V | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    if (hit.until > Date.now()) return hit.value;
    this.remove(key, hit);
    return undefined;
  }

  /**
   * The value kept under `key`, or `load`'s (shared with whoever asks meanwhile), kept per `keep`
   * unless one of its tags was invalidated while it loaded. A lifetime of 0 or less keeps nothing
   * and shares nothing: every call loads.
   */
  get(key: string, load: () => Promise<V>, keep: KeepRule<V> = {}): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const hit = this.peek(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const flying = this.flights.get(key);
    if (flying && Date.now() - flying.startedAt < SHARE_FLIGHT_MS) return flying.promise;
    const flight = { tags: typeof keep === "function" ? undefined : (keep.tags ?? []), startedAt: Date.now() } as Flight<V>;
    this.flights.set(key, flight);
    flight.promise = this.run(key, load, keep, flight);
    return flight.promise;
  }

  /** Drops every value tagged `tag`, or every value when no tag is given. */
  invalidate(tag?: string): void {
    const generation = ++this.generation;
    if (tag === undefined) {
      this.everythingAt = generation;
      this.entries.clear();
      this.keysByTag.clear();
      this.flights.clear();
      return;
    }
    if (this.running > 0) this.invalidatedAt.set(tag, generation);
    for (const [key, flight] of this.flights) if (!flight.tags || flight.tags.includes(tag)) this.flights.delete(key);
    const keys = this.keysByTag.get(tag);
    if (!keys) return;
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (entry) this.remove(key, entry);
    }
    this.keysByTag.delete(tag);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Nothing fresh is kept and nothing loads: an invalidation now would change no answer. */
  get idle(): boolean {
    return this.flights.size === 0 && (this.entries.size === 0 || Date.now() >= this.freshUntil);
  }

  private async run(key: string, load: () => Promise<V>, keep: KeepRule<V>, flight: Flight<V>): Promise<V> {
    const began = this.generation;
    this.running++;
    try {
      const value = await load();
      const rule = typeof keep === "function" ? keep(value) : keep;
      if (rule && this.unchangedSince(began, rule.tags ?? [])) this.keep(key, value, rule);
      return value;
    } finally {
      if (this.flights.get(key) === flight) this.flights.delete(key);
      if (--this.running === 0) this.invalidatedAt.clear();
    }
  }

  private unchangedSince(began: number, tags: readonly string[]): boolean {
    if (this.everythingAt > began) return false;
    return tags.every((t) => (this.invalidatedAt.get(t) ?? 0) <= began);
  }

  private keep(key: string, value: V, rule: Keep): void {
    if (this.entries.size >= this.max) {
      this.entries.clear();
      this.keysByTag.clear();
    }
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    const tags = rule.tags ?? [];
    const until = Math.min(Date.now() + this.ttlMs, rule.until ?? Infinity);
    this.entries.set(key, { value, until, tags });
    this.freshUntil = Math.max(this.freshUntil, until);
    for (const tag of tags) {
      let keys = this.keysByTag.get(tag);
      if (!keys) this.keysByTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  private remove(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    for (const tag of entry.tags) this.keysByTag.get(tag)?.delete(key);
  }
}
