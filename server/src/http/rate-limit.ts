/**
 * Fixed-window rate limiting per caller (session cookie, bearer token, or client address),
 * `ratelimit.per_minute` requests a minute. The decision is made in memory, without a database
 * round trip; on PostgreSQL the counts are also summed across processes (SharedRateLimiter).
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { bearerToken, sessionCookie } from "../auth/caller";
import { resultRows, type Db } from "../db/client";
import type { Logger } from "../log";

const WINDOW_MS = 60_000;

export interface Limiter {
  /** Seconds until the caller may retry, or 0 when the request is allowed. */
  hit(key: string, perMinute: number, now?: number): number;
  /** Begins sharing counts (a no-op where there is nothing to share with). */
  start(): void;
  stop(): Promise<void>;
}

/** One process's counts: what an embedded database (one process by nature) needs. */
export class RateLimiter implements Limiter {
  protected windowStart = 0;
  protected counts = new Map<string, number>();

  hit(key: string, perMinute: number, now = Date.now()): number {
    const window = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    if (window !== this.windowStart) this.newWindow(window);
    const count = this.seen(key) + 1;
    this.counted(key, count);
    if (count <= perMinute) return 0;
    return Math.max(1, Math.ceil((window + WINDOW_MS - now) / 1000));
  }

  start(): void {}

  async stop(): Promise<void> {}

  protected newWindow(window: number): void {
    this.windowStart = window;
    this.counts.clear();
  }

  /** Requests of `key` counted in this window so far. */
  protected seen(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  protected counted(key: string, count: number): void {
    this.counts.set(key, count);
  }
}

/**
 * Counts shared by every process on one PostgreSQL: each process counts locally and, every
 * RATE_LIMIT_SYNC_MS (200 ms by default), adds what it counted to `rate_limit_count` and reads
 * back the totals of those callers. A caller is refused once the total it last read plus what
 * this process counted since reaches the limit, so together the processes admit at most the limit
 * plus what they admit between two syncs. Callers are stored as a sha256 of their key, never as
 * the credential itself.
 */
export class SharedRateLimiter extends RateLimiter {
  /** Totals across processes as of the last sync, this process's flushed counts included. */
  private totals = new Map<string, number>();
  /** Counted here since the last sync. */
  private pending = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private syncing: Promise<void> | null = null;
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly syncMs: number,
  ) {
    super();
  }

  override start(): void {
    this.timer ??= setInterval(() => void this.sync(), this.syncMs);
  }

  override async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sync();
  }

  protected override newWindow(window: number): void {
    super.newWindow(window);
    this.totals.clear();
    this.pending.clear();
  }

  protected override seen(key: string): number {
    return (this.totals.get(key) ?? 0) + (this.pending.get(key) ?? 0);
  }

  protected override counted(key: string): void {
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  /** Adds this process's counts to the shared ones and reads the totals back (one statement). */
  sync(): Promise<void> {
    this.syncing ??= this.flush().finally(() => (this.syncing = null));
    return this.syncing;
  }

  private async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const window = this.windowStart;
    const batch = [...this.pending].map(([key, n]) => ({ key, h: digest(key), n }));
    this.pending = new Map();
    const byHash = new Map(batch.map((b) => [b.h, b.key]));
    try {
      const rows = await this.db.execute(sql`
        insert into rate_limit_count (key_hash, window_start, count)
        select r.h, ${window}::bigint, r.n from json_to_recordset(${JSON.stringify(batch.map(({ h, n }) => ({ h, n })))}::json) as r(h text, n int)
        on conflict (key_hash, window_start) do update set count = rate_limit_count.count + excluded.count
        returning key_hash, count`);
      if (window !== this.windowStart) return; // a new minute began meanwhile: these totals are gone
      for (const row of resultRows<{ key_hash: string; count: number }>(rows)) this.totals.set(byHash.get(row.key_hash)!, Number(row.count));
      await this.sweep(window);
    } catch (err) {
      // The database being away must not stop requests: the counts stay local until it is back.
      if (window === this.windowStart) for (const { key, n } of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + n);
      this.log.warn({ err }, "rate limit counts could not be shared");
    }
  }

  /** Drops finished windows, at most once a minute per process. */
  private async sweep(window: number): Promise<void> {
    if (this.lastSweep === window) return;
    this.lastSweep = window;
    await this.db.execute(sql`delete from rate_limit_count where window_start < ${window}::bigint`);
  }
}

function digest(key: string): string {
  return createHash("sha256").update(key).digest("base64url");
}

/** Who is calling, without a database query: the credential string itself, or the address (asked only then). */
export function callerKey(request: Request, ipOf: () => string | null): string {
  const token = bearerToken(request);
  if (token) return `t:${token.slice(0, 80)}`;
  const session = sessionCookie(request);
  if (session) return `c:${session.slice(0, 80)}`;
  return `ip:${ipOf() ?? "unknown"}`;
}
