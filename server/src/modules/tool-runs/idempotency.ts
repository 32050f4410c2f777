/**
 * Idempotency-Key: the same key, user and body within 24 h return the first answer without
 * running again; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED.
 */
import { fail, ServiceError } from "@vektor/shared/errors";
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { idempotencyKey } from "../../db/schema";

const TTL_MS = 24 * 3_600_000;

export class Idempotency {
  constructor(private readonly db: Db) {}

  /**
   * Run `first` once per (user, scope, key, body). Returns its stored result on a repeat;
   * `first` must return a JSON value (here: the job id it created).
   */
  async once<T>(userId: string, scope: string, key: string, body: unknown, first: () => Promise<T>): Promise<T> {
    if (!/^[\x21-\x7e]{1,200}$/.test(key)) throw fail.validation("Idempotency-Key must be 1 to 200 visible ASCII characters");
    const hash = new Bun.CryptoHasher("sha256").update(JSON.stringify(body ?? null)).digest("hex");
    const where = and(eq(idempotencyKey.userId, userId), eq(idempotencyKey.scope, scope), eq(idempotencyKey.key, key));
    await this.db.delete(idempotencyKey).where(and(where, lt(idempotencyKey.createdAt, new Date(Date.now() - TTL_MS))));
    const inserted = await this.db.insert(idempotencyKey).values({ userId, scope, key, requestHash: hash }).onConflictDoNothing().returning();
    if (inserted.length) {
      try {
        const result = await first();
        await this.db.update(idempotencyKey).set({ response: result as object }).where(where);
        return result;
      } catch (err) {
        await this.db.delete(idempotencyKey).where(where); // a refused request may be sent again
        throw err;
      }
    }
    return this.repeat<T>(where, hash);
  }

  private async repeat<T>(where: ReturnType<typeof and>, hash: string): Promise<T> {
    for (let i = 0; i < 100; i++) {
      const [row] = await this.db.select().from(idempotencyKey).where(where);
      if (!row) throw fail.invalidState("The first request with this Idempotency-Key failed; send a new key");
      if (row.requestHash !== hash) throw new ServiceError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with a different request body");
      if (row.response !== null) return row.response as T;
      await Bun.sleep(50);
    }
    throw fail.invalidState("The first request with this Idempotency-Key is still being handled");
  }
}
