/**
 * Cache invalidation, by named topic, in this process and across the processes sharing the
 * database. Two sources feed it, neither of which looks at the statements a process runs:
 *
 * - `user` and `config`: the write paths that change an account, a credential or a setting
 *   `publish` it once committed; this process's caches drop it before `publish` returns, the
 *   others' when NOTIFY `vektor_invalidate` arrives (PostgreSQL).
 * - `table`: the statement triggers of the cached tables (migration 0009) send NOTIFY
 *   `vektor_tables` with the table's name at commit, heard by every process, this one included.
 *   PGlite delivers it with the answer to the statement (or COMMIT) that sent it; over PostgreSQL
 *   it arrives on the listening connection a little later, so whoever must read its own writes
 *   awaits `caughtUp()` (every request that may have written does, before it is answered).
 *
 * Every cache also keeps its entries no longer than a second or two by default, so a
 * notification lost while a connection was down delays a change, never loses it.
 */
import { sql } from "drizzle-orm";
import type { Database } from "./client";

/** `table` keys are table names, `user` keys account ids ("" is every account), `config` has none. */
export type Topic = "user" | "config" | "table";
type Handler = (key: string) => void;

const CHANNEL = "vektor_invalidate";
const TABLES_CHANNEL = "vektor_tables";
/** Tells this process's own notifications from others' (its handlers already ran). */
const ORIGIN = crypto.randomUUID().slice(0, 8);
/** Starts a fence's payload on `vektor_tables`; no table name does. */
const FENCE = "!";
/** Longest a request waits for its fence (a listening connection that is down must not hang requests). */
const FENCE_TIMEOUT_MS = 1000;

export class Invalidations {
  private readonly handlers = new Map<Topic, Set<Handler>>();
  private unlisten: (() => Promise<void>)[] = [];
  private fences = 0;
  private readonly waiting = new Map<number, () => void>();

  constructor(
    private readonly database: Database,
    /**
     * Whether this process hears table changes. A process that serves no HTTP (ROLE=worker) reads
     * no cached answer and streams no run, and each notification it heard cost it and its
     * PostgreSQL backend about 0.07 ms of CPU: 7 per 5-step workflow run, in every worker process.
     */
    private readonly tables = true,
  ) {}

  /** Hears table changes (both databases; unless `tables` is off) and other processes' account and setting changes (PostgreSQL). */
  async start(): Promise<void> {
    if (this.unlisten.length) return;
    if (this.tables) this.unlisten.push(await this.database.listen(TABLES_CHANNEL, (payload) => this.tableChanged(payload)));
    if (this.database.kind === "postgres") this.unlisten.push(await this.database.listen(CHANNEL, (payload) => this.received(payload)));
  }

  async stop(): Promise<void> {
    for (const stop of this.unlisten.splice(0)) await stop().catch(() => {});
    for (const release of this.waiting.values()) release();
    this.waiting.clear();
  }

  on(topic: Topic, fn: Handler): void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(fn);
  }

  /** `key` of `topic` changed: this process's caches drop it now, the others on the notification. */
  async publish(topic: Exclude<Topic, "table">, key = ""): Promise<void> {
    this.run(topic, key);
    if (this.database.kind !== "postgres") return;
    await this.database.db.execute(sql`select pg_notify(${CHANNEL}, ${`${ORIGIN}:${topic}:${key}`})`);
  }

  /**
   * Resolves once this process has heard of every table change committed before the call: a
   * fence sent on `vektor_tables` comes back after them, since PostgreSQL delivers notifications
   * in commit order. Immediate on PGlite (and before start), which has delivered them already.
   * Never throws: when the fence cannot be sent or does not come back in time, the caches'
   * lifetime bounds what is missed.
   */
  async caughtUp(): Promise<void> {
    if (this.database.kind !== "postgres" || this.unlisten.length === 0 || !this.tables) return;
    const n = ++this.fences;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const heard = new Promise<void>((resolve) => {
      this.waiting.set(n, resolve);
      timer = setTimeout(resolve, FENCE_TIMEOUT_MS);
    });
    try {
      await this.database.db.execute(sql`select pg_notify(${TABLES_CHANNEL}, ${`${FENCE}${ORIGIN}:${n}`})`);
      await heard;
    } catch {
      // The database is unreachable: so is anything this request could have written.
    } finally {
      clearTimeout(timer);
      this.waiting.delete(n);
    }
  }

  private tableChanged(payload: string): void {
    if (!payload.startsWith(FENCE)) return this.run("table", payload);
    const [origin, n] = payload.slice(FENCE.length).split(":");
    if (origin !== ORIGIN) return;
    // What an earlier fence waits for committed before that fence was numbered, so before this
    // one was sent: this one releases it too.
    for (const [m, release] of this.waiting) if (m <= Number(n)) release();
  }

  private received(payload: string): void {
    const [origin, topic, ...rest] = payload.split(":");
    if (origin === ORIGIN || (topic !== "user" && topic !== "config")) return;
    this.run(topic, rest.join(":"));
  }

  private run(topic: Topic, key: string): void {
    for (const fn of this.handlers.get(topic) ?? []) fn(key);
  }
}
