/**
 * How long a request body may take to arrive: a grace period plus its length at a minimum rate
 * (Apache's mod_reqtimeout "body=30,MinRate=..." in one figure, known when the body starts). A
 * client that trickles a body in, one byte every few seconds, otherwise holds a connection, a
 * file handle and a rate-limit slot for as long as it likes; past its deadline it is answered
 * 408 REQUEST_TIMEOUT and the connection closed (Bun closes it when an answer leaves before the
 * body was read, which fails the pending read, and the store removes what was written).
 */
import { ServiceError } from "@vektor/shared/errors";
import type { Env } from "../env";

export type BodyLimits = Pick<Env, "bodyTimeoutMs" | "bodyMinBytesPerSecond">;

/** Milliseconds a body of `bytes` may take. */
export function bodyDeadlineMs(limits: BodyLimits, bytes: number): number {
  return limits.bodyTimeoutMs + Math.ceil((bytes / limits.bodyMinBytesPerSecond) * 1000);
}

function tooSlow(limits: BodyLimits, ms: number): ServiceError {
  const message = `The request body did not arrive within ${Math.ceil(ms / 1000)} s (${Math.round(limits.bodyTimeoutMs / 1000)} s, plus one more for every ${limits.bodyMinBytesPerSecond} bytes): send it again on a faster connection, or in smaller parts`;
  return new ServiceError("REQUEST_TIMEOUT", message, { connection: "close" });
}

/**
 * `reading` (the work that consumes a body of `bytes`), or REQUEST_TIMEOUT once the body's
 * deadline passes; `onLate` runs then (to cancel a reader the caller holds). A read given up on
 * still settles later; its failure is swallowed here, its clean-up is the reader's.
 */
export async function withinBodyDeadline<T>(limits: BodyLimits, bytes: number, reading: Promise<T>, onLate?: () => void): Promise<T> {
  const ms = bodyDeadlineMs(limits, bytes);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onLate?.();
      reject(tooSlow(limits, ms));
    }, ms);
  });
  reading.catch(() => {});
  try {
    return await Promise.race([reading, late]);
  } finally {
    clearTimeout(timer);
  }
}
