/**
 * The webhook signature of the spec ("Authentication"): `sha256=` + hex HMAC-SHA-256 of
 * "<timestamp>.<raw body>" keyed with the trigger secret. Inbound hooks and outbound
 * notifications use the same scheme; a receiver can call this to check one.
 */
export async function signWebhook(secret: string, timestamp: number | string, rawBody: string | Uint8Array): Promise<string> {
  const te = new TextEncoder();
  const body = typeof rawBody === "string" ? te.encode(rawBody) : rawBody;
  const prefix = te.encode(`${timestamp}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix);
  message.set(body, prefix.length);
  const key = await crypto.subtle.importKey("raw", te.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  return `sha256=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
