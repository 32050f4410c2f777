/**
 * Callers resolved from a credential (a session cookie's value or a bearer token), kept for
 * AUTH_CACHE_MS (1 s by default) so a burst of calls pays one database lookup a second instead
 * of one each; concurrent calls with one credential share the lookup. Signing out, revoking a
 * session or a token and changing an account drop that account's entries at once in the process
 * that did it and, through Invalidations' `user` topic, in every other process; the short
 * lifetime bounds what a lost notification could cost. A credential that resolves to no one is
 * not kept.
 */
import { Cache } from "../lib/cache";
import type { Caller } from "./caller";

/** What a credential resolved to, and when the credential itself ends (null: never). */
export interface Resolved {
  caller: Caller;
  expiresAt: number | null;
}

export class CredentialCache extends Cache<Resolved | null> {
  /** `max` bounds memory under a flood of distinct credentials (all are dropped when it is reached). */
  constructor(ttlMs: number, max = 10_000) {
    super(ttlMs, max);
  }

  /**
   * The caller of `credential`, from memory or `lookup`, kept (never past the credential's end)
   * unless its account changed while the lookup ran: the answer may predate a sign-out that has
   * already been acknowledged.
   */
  async caller(credential: string, lookup: () => Promise<Resolved | null>): Promise<Caller | null> {
    const found = await this.get(credential, lookup, (r) => r && { tags: [r.caller.id], until: r.expiresAt });
    return found?.caller ?? null;
  }

  /** Forgets every credential of `userId` ("" forgets all). */
  dropUser(userId: string): void {
    this.invalidate(userId || undefined);
  }
}
