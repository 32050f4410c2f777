/**
 * Cache invalidation across processes. Caches in one process (credentials, configuration) hear of
 * a change made in this process at once, before `publish` returns, and of one made in another
 * process sharing the PostgreSQL server through NOTIFY `vektor_invalidate` as soon as the change
 * commits. Every cache also keeps its entries no longer than a second or two, so a notification
 * lost while a connection was down delays a change, never loses it.
 */
import { sql } from "drizzle-orm";
import type { Database } from "./client";

export type Topic = "user" | "config";
type Handler = (key: string) => void;

const CHANNEL = "vektor_invalidate";
/** Tells this process's own notifications from others' (its handlers already ran). */
const ORIGIN = crypto.randomUUID().slice(0, 8);

export class Invalidations {
  private readonly handlers = new Map<Topic, Set<Handler>>();
  private unlisten: (() => Promise<void>) | null = null;
  private readonly stops: (() => Promise<void>)[] = [];

  constructor(private readonly database: Database) {}

  /** Hears other processes' changes (PostgreSQL only: an embedded database has one process). */
  async start(): Promise<void> {
    if (this.database.kind !== "postgres" || this.unlisten) return;
    this.unlisten = await this.database.listen(CHANNEL, (payload) => this.received(payload));
  }

  async stop(): Promise<void> {
    await this.unlisten?.().catch(() => {});
    this.unlisten = null;
    for (const stop of this.stops.splice(0)) await stop().catch(() => {});
  }

  /** Also run `fn` on stop (other listeners of the same kind). */
  onStop(fn: () => Promise<void>): void {
    this.stops.push(fn);
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
