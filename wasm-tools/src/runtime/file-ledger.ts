/**
 * What a worker thread has open on the host, kept where the thread that ends it can see it.
 * Terminating a worker runs none of its `finally` blocks and closes none of its descriptors, which
 * are the process's: the server's pool ends a cancelled or timed-out run by terminating its
 * worker, and every file the run had open stayed open in the server for good (with its disk space,
 * once the job folder was removed). GDAL holds its input and outputs open for a whole run
 * (Emscripten's NODEFS); the other host-file code opens and closes within one call, and a worker
 * terminated between the two leaked too (a loop of terminations leaks in about a third).
 *
 * The ledger is an Int32Array over a SharedArrayBuffer, shared by the worker (and any worker it
 * starts) and the thread that ends it. Cell 0 counts the host calls under way, with STOP set once
 * the host stops the worker: from then on no call starts. The other cells hold the descriptors
 * kept open between calls (fd + 1; 0 is free). A call is everything that opens, uses or closes a
 * host file; opening and recording (or unrecording and closing) happen in one call. So once the
 * host has set STOP and seen no call under way, the cells list exactly what the worker holds,
 * and nothing will use those descriptors again: the host terminates the worker and closes them.
 *
 * No Node built-ins here: browsers bundle the modules that call it (they pass no ledger).
 */

const STOP = 1 << 30;
const CALLS = STOP - 1;

/** How long a host waits for calls under way to return (a stuck disk) before terminating anyway. */
export const CALL_LIMIT_MS = 5_000;

/** A fresh ledger with room for `held` descriptors kept open between calls. */
export function newFileLedger(held = 1024): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4 * (1 + held)));
}

/** This thread's ledgers: none, or the one its host gave (one array, not one per call: GDAL makes many). */
let ofThread: Int32Array[] = [];

/** Installs this thread's ledger (a server tool worker's, given by its pool); host-file code then counts its calls in it. */
export function setThreadLedger(ledger: Int32Array | undefined): void {
  if (ledger !== ofThread[0]) ofThread = ledger ? [ledger] : [];
}

/** The ledgers this thread's host calls count in: its own, when its host gave one. */
export function threadLedgers(): readonly Int32Array[] {
  return ofThread;
}

/** Counts a call in each ledger; false (and none counted) when one of them is stopped. */
function enter(ledgers: readonly Int32Array[]): boolean {
  for (let i = 0; i < ledgers.length; i++) {
    const ledger = ledgers[i];
    for (;;) {
      const now = Atomics.load(ledger, 0);
      if (now & STOP) {
        leave(ledgers.slice(0, i));
        return false;
      }
      if (Atomics.compareExchange(ledger, 0, now, now + 1) === now) break;
    }
  }
  return true;
}

function leave(ledgers: readonly Int32Array[]): void {
  for (const ledger of ledgers) Atomics.sub(ledger, 0, 1);
}

/** Runs `call` as a host call of `ledgers`; `refuse`s instead when a host has stopped one of them. */
export function asHostCall<T>(ledgers: readonly Int32Array[], call: () => T, refuse: () => never): T {
  if (ledgers.length === 0) return call();
  if (!enter(ledgers)) refuse();
  try {
    return call();
  } finally {
    leave(ledgers);
  }
}

/** `asHostCall` for a call that returns a promise: counted until it settles. */
export async function asHostCallAsync<T>(ledgers: readonly Int32Array[], call: () => Promise<T>, refuse: () => never): Promise<T> {
  if (ledgers.length === 0) return call();
  if (!enter(ledgers)) refuse();
  try {
    return await call();
  } finally {
    leave(ledgers);
  }
}

/** Records `fd` as held open between calls (inside the call that opened it); false when the ledger is full. */
export function recordHeld(ledger: Int32Array, fd: number): boolean {
  for (let i = 1; i < ledger.length; i++) if (Atomics.compareExchange(ledger, i, 0, fd + 1) === 0) return true;
  return false;
}

/** Forgets `fd` (inside the call that closes it). */
export function forgetHeld(ledger: Int32Array, fd: number): void {
  for (let i = 1; i < ledger.length; i++) if (Atomics.compareExchange(ledger, i, fd + 1, 0) === fd + 1) return;
}

/**
 * Host side: stops the ledger's worker from starting host calls and waits until none is under
 * way. Answers the descriptors it holds (to close once it is terminated), or null when a call
 * was still under way after `limitMs`: its descriptors may still be in use, so none is safe to close.
 */
export async function stopAndDrain(ledger: Int32Array, limitMs = CALL_LIMIT_MS): Promise<number[] | null> {
  Atomics.or(ledger, 0, STOP);
  const until = Date.now() + limitMs;
  // A call is one open, read, write or close: polling each millisecond waits about that long.
  while (Atomics.load(ledger, 0) & CALLS) {
    if (Date.now() >= until) return null;
    await new Promise((done) => setTimeout(done, 1));
  }
  const held: number[] = [];
  for (let i = 1; i < ledger.length; i++) if (ledger[i]) held.push(ledger[i] - 1);
  return held;
}
