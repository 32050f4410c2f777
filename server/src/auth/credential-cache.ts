/**
 * Callers resolved from a credential (a session cookie's value or a bearer token), kept for
 * AUTH_CACHE_MS (1 s by default) so a burst of calls pays one database lookup a second instead
 * of one each. Signing out, revoking a session or a token and changing an account drop that
 * account's entries at once in the process that did it and, through Invalidations, in every
 * other process; the short lifetime bounds what a lost notification could cost.
 */
import type { Caller } from "./caller";

interface Entry {
  caller: Caller;
  until: number;
}

export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped on every drop: a lookup that started before it must not store what it found. */
  generation = 0;

  /** `max` bounds memory under a flood of distinct credentials (all are dropped when it is reached). */
  constructor(
    private readonly ttlMs: number,
    private readonly max = 10_000,
  ) {}

  get(credential: string, now = Date.now()): Caller | undefined {
    const hit = this.entries.get(credential);
    if (!hit) return undefined;
    if (hit.until > now) return hit.caller;
    this.entries.delete(credential);
    return undefined;
  }

  /** Keeps `caller` for the lifetime, never past `expiresAt` (the credential's own end). */
  set(credential: string, caller: Caller, expiresAt: number | null = null, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(credential, { caller, until: Math.min(now + this.ttlMs, expiresAt ?? Infinity) });
  }

  /** Forgets every credential of `userId` ("" forgets all). */
  dropUser(userId: string): void {
    this.generation++;
    if (!userId) return this.entries.clear();
    for (const [key, entry] of this.entries) if (entry.caller.id === userId) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
