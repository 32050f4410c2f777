/**
 * Cache invalidation across processes. Caches in one process (credentials, configuration) hear of
 * a change made in this process at once, before `publish` returns, and of one made in another
 * process sharing the PostgreSQL server through NOTIFY `vektor_invalidate` as soon as the change
 * commits. Every cache also keeps its entries no longer than a second or two, so a notification
 * lost while a connection was down delays a change, never loses it.
 */
import { sql } from "drizzle-orm";
import type { Database } from "./client";

/** `table` keys are table names: this process's writes (Database.onWrite) and others' (triggers, migration 0009). */
export type Topic = "user" | "config" | "table";
type Handler = (key: string) => void;

const CHANNEL = "vektor_invalidate";
const TABLES_CHANNEL = "vektor_tables";
/** Tells this process's own notifications from others' (its handlers already ran). */
const ORIGIN = crypto.randomUUID().slice(0, 8);

export class Invalidations {
  private readonly handlers = new Map<Topic, Set<Handler>>();
  private unlisten: (() => Promise<void>)[] = [];

  constructor(private readonly database: Database) {
    database.onWrite((tables) => tables.forEach((t) => this.run("table", t)));
  }

  /** Hears other processes' changes (PostgreSQL only: an embedded database has one process). */
  async start(): Promise<void> {
    if (this.database.kind !== "postgres" || this.unlisten.length) return;
    this.unlisten.push(await this.database.listen(CHANNEL, (payload) => this.received(payload)));
    this.unlisten.push(await this.database.listen(TABLES_CHANNEL, (table) => this.run("table", table)));
  }

  async stop(): Promise<void> {
    for (const stop of this.unlisten.splice(0)) await stop().catch(() => {});
  }

  on(topic: Topic, fn: Handler): void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(fn);
  }

  /** `key` of `topic` changed: this process's caches drop it now, the others on the notification. */
  async publish(topic: Topic, key = ""): Promise<void> {
    this.run(topic, key);
    if (this.database.kind !== "postgres") return;
    await this.database.db.execute(sql`select pg_notify(${CHANNEL}, ${`${ORIGIN}:${topic}:${key}`})`);
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
