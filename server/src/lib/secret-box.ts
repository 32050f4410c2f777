/**
 * Secrets the server must read back (a webhook trigger's secret keys an HMAC, so a hash would
 * not do) are stored sealed: AES-256-GCM (WebCrypto) under a key derived from the server secret
 * with HKDF, a fresh 96-bit IV each time, and associated data naming the row, so a sealed value
 * copied onto another row does not open. A database dump alone hands out nothing.
 */

const enc = new TextEncoder();
const VERSION = "v1";

function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

/** An AES-256-GCM key for one purpose, derived from the server secret (HKDF-SHA-256). */
export async function deriveSecretKey(serverSecret: string, purpose: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", enc.encode(serverSecret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: enc.encode("vektor.secret-box"), info: enc.encode(purpose) }, base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

/** `v1.<iv>.<ciphertext+tag>` (base64url), bound to `context` (e.g. the row id). */
export async function seal(key: CryptoKey, plaintext: string, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: enc.encode(context) }, key, enc.encode(plaintext));
  return `${VERSION}.${b64url(iv)}.${b64url(new Uint8Array(ct))}`;
}

/** The plaintext, or null when the value was sealed under another key or for another context, or was altered. */
export async function unseal(key: CryptoKey, sealed: string, context: string): Promise<string | null> {
  const [version, iv, ct] = sealed.split(".");
  if (version !== VERSION || !iv || !ct) return null;
  try {
    const pt = await crypto.subtle.decrypt({ name: "AES-GCM", iv: Buffer.from(iv, "base64url"), additionalData: enc.encode(context) }, key, Buffer.from(ct, "base64url"));
    return new TextDecoder().decode(pt);
  } catch {
    return null;
  }
}
