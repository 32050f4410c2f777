/**
 * A ready shell command that calls a workflow's hook the way the server checks it (spec
 * "Authentication"; server/src/modules/workflows/triggers.ts): X-Service-Timestamp is the Unix
 * time in seconds, X-Service-Signature is `sha256=` + hex HMAC-SHA-256 of "<timestamp>.<raw
 * body>" keyed with the trigger's secret, and the body sent is exactly the bytes signed.
 * curl and openssl only; each call signs with a new timestamp (a signature is accepted once).
 */

/** Single-quoted for POSIX shells: safe for any text. */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function webhookExample(url: string, secret: string | null, body = '{"fileIds":[]}'): string {
  return [
    `SECRET=${secret ? shellQuote(secret) : "'<the secret shown when the webhook was added or rotated>'"}`,
    `BODY=${shellQuote(body)}`,
    "TS=$(date +%s)",
    `SIG=$(printf '%s' "$TS.$BODY" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //')`,
    `curl -sS -X POST ${shellQuote(url)} \\`,
    "  -H 'Content-Type: application/json' \\",
    '  -H "X-Service-Timestamp: $TS" \\',
    '  -H "X-Service-Signature: sha256=$SIG" \\',
    '  --data-raw "$BODY"',
  ].join("\n");
}
