/**
 * What a transaction starts and only its end may decide: a tool lane held for a job the
 * transaction inserts already claimed runs the job once the row is committed, and is given back
 * when it is not (workflows/engine.ts). Only transactions opened with `transactionWithEnd` keep
 * such hooks; in any other (a nested one included) `onTransactionEnd` answers false, and the
 * caller takes the way that needs none.
 */
import type { Db, Tx } from "./client";

type EndHook = (committed: boolean) => void;

const hooks = new WeakMap<Tx, EndHook[]>();

/** `db.transaction(fn)`, then each hook `fn` registered, told whether the transaction committed. */
export async function transactionWithEnd<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const registered: EndHook[] = [];
  let result: T;
  try {
    result = await db.transaction((tx) => {
      hooks.set(tx, registered);
      return fn(tx);
    });
  } catch (err) {
    runHooks(registered, false);
    throw err;
  }
  runHooks(registered, true);
  return result;
}

/** Registers `hook` for the end of `tx`; false when `tx` keeps no hooks (nothing registered). */
export function onTransactionEnd(tx: Tx, hook: EndHook): boolean {
  const list = hooks.get(tx);
  if (!list) return false;
  list.push(hook);
  return true;
}

function runHooks(list: EndHook[], committed: boolean): void {
  for (const hook of list.splice(0)) {
    try {
      hook(committed);
    } catch {
      // A throw here, after the commit, would tell the caller its transaction failed, and it would
      // retry what is recorded; nor may it stop the other hooks, each of which gives back a lane.
    }
  }
}
