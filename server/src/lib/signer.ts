/**
 * Signed URLs for the server's own upload and download routes (local-disk storage): an
 * HMAC-SHA-256 over the purpose, the resource and the expiry, compared in constant time.
 */
import { timingSafeEqual } from "node:crypto";

export class UrlSigner {
  constructor(private readonly secret: string) {}

  sign(purpose: string, parts: (string | number)[], expiresAt: number): string {
    const h = new Bun.CryptoHasher("sha256", this.secret);
    h.update(`${purpose}\n${parts.join("\n")}\n${expiresAt}`);
    return h.digest("base64url");
  }

  /** Query string carrying `exp` (unix seconds) and `sig`. */
  query(purpose: string, parts: (string | number)[], ttlSeconds: number): { qs: string; expiresAt: Date } {
    const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
    return { qs: `exp=${exp}&sig=${this.sign(purpose, parts, exp)}`, expiresAt: new Date(exp * 1000) };
  }

  /** "ok", "expired" or "invalid" for the `exp`/`sig` of a request. */
  verify(purpose: string, parts: (string | number)[], exp: string | undefined, sig: string | undefined): "ok" | "expired" | "invalid" {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return "invalid";
    const expected = Buffer.from(this.sign(purpose, parts, Number(exp)));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
    return Number(exp) * 1000 < Date.now() ? "expired" : "ok";
  }
}
