/**
 * Work done in a transaction that is always rolled back: what it wrote is never seen or kept, and
 * a rolled-back transaction sends no notification. For statements run for their side effects on
 * the engine (the boot's warm-up) or measured (tests). Its `tx` is typed as a Db: the hot paths'
 * prepared statements take one, and run the same in a transaction.
 */
import type { Db } from "./client";

/** Thrown to roll the transaction back: a transaction's callback that returns commits. */
class RolledBack extends Error {}

/** Runs `work` in a transaction, then rolls it back; answers what `work` answered. */
export async function rolledBack<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  let answer: T | undefined;
  try {
    await db.transaction(async (tx) => {
      answer = await work(tx as unknown as Db);
      throw new RolledBack();
    });
  } catch (err) {
    if (!(err instanceof RolledBack)) throw err;
  }
  return answer as T;
}
