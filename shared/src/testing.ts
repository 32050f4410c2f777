/**
 * Test helpers every workspace's tests share (never imported by code that runs in production):
 * polling until a condition holds, and the ServiceError a call is refused with.
 */
import { ServiceError } from "./errors";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `fn` every `everyMs` until `ok` holds for its value (returned), or throws naming `what`
 * and the last value once `timeoutMs` has passed.
 */
export async function waitFor<T>(what: string, fn: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await sleep(everyMs);
  }
}

/** The ServiceError `promise` rejects with, as plain data; anything else (or no rejection) fails the test. */
export async function rejection(promise: Promise<unknown>): Promise<{ code: string; status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { code: error.code, status: error.status, message: error.message };
  }
  throw new Error("expected a ServiceError, but the promise resolved");
}
