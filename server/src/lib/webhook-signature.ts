/**
 * The webhook signature of the spec ("Authentication"): HMAC-SHA-256 of "<timestamp>.<raw body>"
 * keyed with a secret, sent as `X-Service-Signature: sha256=<hex>` beside `X-Service-Timestamp`.
 * The one implementation on the server: the inbound hook verifies with it, outbound completion
 * webhooks sign with it (shared/src/client `signWebhook` is the same scheme for callers).
 */
import { createHmac } from "node:crypto";

/** The raw MAC (32 bytes), for a constant-time comparison. */
export function webhookHmac(secret: string, timestamp: string | number, raw: string | Uint8Array): Buffer {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(raw).digest();
}

/** The `X-Service-Signature` value. */
export function signatureHeader(secret: string, timestamp: string | number, raw: string | Uint8Array): string {
  return `sha256=${webhookHmac(secret, timestamp, raw).toString("hex")}`;
}
