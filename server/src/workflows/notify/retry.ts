/**
 * The retry policy and the shared plumbing of both notification kinds: a delivery attempt that
 * did not get through asks the queue for a retry (no throw: the log has one line per attempt,
 * not a stack trace), so the queue puts the job back with exponential back-off and jitter stored
 * as its run_after (a restart keeps the schedule); after the last attempt the delivery is marked
 * failed in the transaction that ends the job.
 */
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client";
import { delivery, type DeliveryAttempt } from "../../db/schema";
import type { ControlHandler, RetryRequest } from "../../queue/registry";
import type { RetryPolicy } from "../../queue/kinds";
import type { Logger } from "../../log";
import type { Settings } from "../../config/keys";
import { loadDelivery, type DeliveryRow } from "./deliveries";

/** Ten attempts: with the default 30 s base, 30 s, 1, 2, 4, ... 32 min apart, about two hours in all. */
export const NOTIFY_ATTEMPTS = 10;

/** Back-off doubles from `baseMs` (NOTIFY_RETRY_BASE_MS), up to 64 times it and never more than an hour. */
export function notifyRetryPolicy(baseMs: number): RetryPolicy {
  const base = Math.max(1, baseMs);
  return { attempts: NOTIFY_ATTEMPTS, baseDelayMs: base, maxDelayMs: Math.min(3_600_000, base * 64) };
}

export interface NotifyDeps {
  db: Db;
  config: Settings;
  log: Logger;
  /** NOTIFY_TIMEOUT_MS: one attempt's time limit (default 10 s). */
  timeoutMs: number;
  /** NOTIFY_RETRY_BASE_MS. */
  retryBaseMs: number;
}

/**
 * What a handler answers after recording a failed attempt: the queue tries again later and logs
 * the attempt once, with the delivery, the run, the reason and what the receiver said.
 */
export function attemptFailed(row: { id: string; runId: string }, attempt: DeliveryAttempt): RetryRequest {
  return { retry: attempt.error ?? attempt.outcome, log: { deliveryId: row.id, runId: row.runId, outcome: attempt.outcome, statusCode: attempt.statusCode } };
}

/**
 * A notification kind's handler: each try sends the delivery if it is still pending (`send`
 * records the attempt and answers attemptFailed's retry request when it did not get through);
 * after the last try the delivery is marked failed.
 */
export function deliveryHandler<K extends "notify.webhook" | "notify.email">(kind: K, d: NotifyDeps, send: (row: DeliveryRow, attempt: number) => Promise<RetryRequest | void>): ControlHandler<K> {
  return {
    kind,
    retry: notifyRetryPolicy(d.retryBaseMs),
    async run(job) {
      const row = await loadDelivery(d.db, job.data.deliveryId);
      if (!row || row.status !== "pending") return;
      return send(row, job.attempts);
    },
    onFailed: (tx, job) => markFailed(tx, job.data.deliveryId),
  };
}

/** After the last attempt: the delivery gave up (its attempts are already recorded). */
export async function markFailed(tx: Tx, deliveryId: string): Promise<void> {
  await tx.update(delivery).set({ status: "failed", finishedAt: new Date() }).where(and(eq(delivery.id, deliveryId), eq(delivery.status, "pending")));
}
