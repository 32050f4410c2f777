/**
 * `notify.webhook`: one attempt of an outbound completion webhook (spec "Events" 2). POSTs the
 * delivery's fixed body to the run's notifyUrl through the import address guard (checked again
 * on every attempt and every redirect), signed with the run's notifySecret when it has one (same
 * scheme and headers as the inbound hook, a fresh timestamp per attempt), with the delivery id
 * in X-Service-Delivery. A 2xx ends it; a refusal by the guard ends it as blocked, never sent
 * and not retried; anything else is recorded and retried by the queue (asked for, not thrown).
 */
import { ServiceError } from "@vektor/shared/errors";
import { DELIVERY_HEADER } from "@vektor/shared/schemas/notify";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from "@vektor/shared/schemas/trigger";
import type { DeliveryAttempt } from "../../db/schema";
import type { ControlHandler } from "../../queue/registry";
import { signatureHeader } from "../../lib/webhook-signature";
import { guardedRequest } from "../../net/safe-fetch";
import { attemptFailed, deliveryHandler, type NotifyDeps } from "./retry";
import { recordAttempt, type DeliveryRow } from "./deliveries";
import { runSigningSecret, type NotifySecrets } from "./secret";

export const USER_AGENT = "Vektor-Webhook/1.0";

class Timeout extends Error {}

/** The headers of one attempt: the signature covers "<timestamp>.<body>" with this attempt's timestamp. */
export function deliveryHeaders(d: Pick<DeliveryRow, "id" | "body">, secret: string | null, nowMs = Date.now()): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": USER_AGENT, [DELIVERY_HEADER]: d.id };
  if (secret) {
    const ts = Math.floor(nowMs / 1000);
    headers[TIMESTAMP_HEADER] = String(ts);
    headers[SIGNATURE_HEADER] = signatureHeader(secret, ts, d.body);
  }
  return headers;
}

/** Sends one attempt and says what it gave; never throws. */
export async function sendWebhook(d: Pick<DeliveryRow, "id" | "body" | "target">, secret: string | null, opts: { allowHosts: string[]; timeoutMs: number }): Promise<DeliveryAttempt> {
  const started = Date.now();
  const at = new Date(started).toISOString();
  const result = (outcome: DeliveryAttempt["outcome"], statusCode: number | null, error: string | null): DeliveryAttempt => ({ at, outcome, statusCode, error, durationMs: Date.now() - started });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Timeout()), opts.timeoutMs);
  try {
    const { response } = await guardedRequest(d.target, { allowHosts: opts.allowHosts, signal: abort.signal, method: "POST", headers: deliveryHeaders(d, secret), body: d.body });
    // Only the status matters; the body is dropped (the timer still bounds a receiver that never ends it).
    await response.body?.cancel().catch(() => {});
    if (response.status >= 200 && response.status < 300) return result("ok", response.status, null);
    return result("http_error", response.status, `the receiver answered ${response.status}`);
  } catch (err) {
    if (abort.signal.aborted && abort.signal.reason instanceof Timeout) return result("timeout", null, `no answer within ${opts.timeoutMs / 1000} s`);
    if (err instanceof ServiceError && err.code === "IMPORT_BLOCKED" && !err.message.startsWith("too many redirects")) return result("blocked", null, err.message);
    return result("error", null, err instanceof Error ? err.message : String(err));
  } finally {
    clearTimeout(timer);
  }
}

export function notifyWebhookHandler(d: NotifyDeps & { notifySecrets: NotifySecrets }): ControlHandler<"notify.webhook"> {
  return deliveryHandler("notify.webhook", d, async (row, tries) => {
    // The secret stays sealed in the run's snapshot: the delivery row never holds it.
    const signing = await runSigningSecret(d.db, d.notifySecrets, row.runId);
    if (!signing) return;
    // Sealed but not opening: never sent unsigned, and trying again would not help.
    if ("failed" in signing) return recordAttempt(d.db, row.id, signing.failed, "failed");
    const { secret } = signing;
    const attempt = await sendWebhook(row, secret, { allowHosts: await d.config.get("net.allow_hosts"), timeoutMs: d.timeoutMs });
    const status = attempt.outcome === "ok" ? "succeeded" : attempt.outcome === "blocked" ? "blocked" : "pending";
    await recordAttempt(d.db, row.id, attempt, status);
    // A failed attempt is logged by the queue, once, with whether it will be tried again.
    if (status === "pending") return attemptFailed(row, attempt);
    d.log.info({ deliveryId: row.id, runId: row.runId, attempt: tries, outcome: attempt.outcome, statusCode: attempt.statusCode }, "completion webhook attempt");
  });
}
