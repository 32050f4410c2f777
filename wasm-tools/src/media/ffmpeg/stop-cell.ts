/**
 * A job worker with host folders mounted is ended only between two of its host-file calls.
 * Terminating a worker runs none of its `finally` blocks, so a worker ended between `openSync`
 * and `closeSync` leaves that descriptor open in the server's process for good (CI saw a
 * cancelled transcode keep its input open; a loop of terminations leaks in about a third of them).
 *
 * The host and the worker share one Int32Array cell: bit 0 says a host call is under way (the
 * worker sets and clears it), bit 1 says stop (the host sets it). Once stop is set no call
 * starts, so the host terminates the worker as soon as the call under way, if any, returns.
 */

const IN_CALL = 1;
const STOP = 2;

/** How long the host waits for a host call to return before terminating anyway (a stuck disk). */
const CALL_LIMIT_MS = 5_000;

/** A fresh cell, shared with the worker (it needs SharedArrayBuffer: the server's hosts). */
export function newStopCell(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** Worker side: runs `call` as a host call, or `refuse`s when the host has stopped this worker. */
export function asHostCall<T>(cell: Int32Array, call: () => T, refuse: () => never): T {
  if (Atomics.compareExchange(cell, 0, 0, IN_CALL) !== 0) refuse();
  try {
    return call();
  } finally {
    Atomics.and(cell, 0, ~IN_CALL);
  }
}

/** Host side: sets stop, then resolves once no host call is under way (the worker may be terminated then). */
export async function stopBetweenCalls(cell: Int32Array, limitMs = CALL_LIMIT_MS): Promise<void> {
  Atomics.or(cell, 0, STOP);
  const until = Date.now() + limitMs;
  // A call is one read or write of a piece of a file: polling each millisecond waits at most that.
  while (Atomics.load(cell, 0) & IN_CALL && Date.now() < until) await new Promise((done) => setTimeout(done, 1));
}
