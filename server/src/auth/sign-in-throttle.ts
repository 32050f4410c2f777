/**
 * Failed sign-ins and their growing back-off, kept in the database so that every process sees
 * them. Better Auth's own rate limit caps how often an address may try at all (see
 * better-auth.ts); this adds what it cannot: a wait that doubles with each further failure, per
 * account and per address.
 *
 * - An address that failed FREE_PER_ADDRESS times (any accounts) waits before its next try.
 * - An account that failed FREE_PER_ACCOUNT times (any addresses) waits too, but only for the
 *   addresses that failed on it: its owner still signs in from an address that has not failed,
 *   and an attacker spread over many addresses gets one guess per fresh address.
 *
 * The account is the e-mail as typed (trimmed, lower-case), whether or not an account has it, so
 * unknown and known e-mails are answered and timed alike. Keys are stored as sha256 digests.
 */
import { createHash } from "node:crypto";
import { inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { signInFailure } from "../db/schema";

export const FREE_PER_ACCOUNT = 5;
export const FREE_PER_ADDRESS = 20;
/** The first wait once the free failures are used up; it doubles with every further failure. */
export const FIRST_WAIT_S = 30;
const MAX_WAIT_S = 3600;
/** Failures older than this are forgotten (the count starts again). */
const FORGET_MS = 24 * 3600_000;

interface Keys {
  account: string;
  pair: string;
  address: string;
}

function digest(key: string): string {
  return createHash("sha256").update(key).digest("base64url");
}

function keysOf(email: string, address: string): Keys {
  const account = email.trim().toLowerCase();
  return { account: digest(`a:${account}`), pair: digest(`p:${account}|${address}`), address: digest(`i:${address}`) };
}

/** Seconds still to wait after `failures` failures, the last at `last`, when `free` come at no cost. */
export function waitAfter(failures: number, last: Date, free: number, now = Date.now()): number {
  if (failures < free) return 0;
  const wait = Math.min(MAX_WAIT_S, FIRST_WAIT_S * 2 ** (failures - free));
  return Math.max(0, Math.ceil((last.getTime() + wait * 1000 - now) / 1000));
}

export class SignInThrottle {
  private lastSweep = 0;

  constructor(private readonly db: Db) {}

  /** Seconds this address must wait before trying this e-mail again; 0 when it may try now. */
  async retryAfter(email: string, address: string, now = Date.now()): Promise<number> {
    const k = keysOf(email, address);
    const rows = await this.db.select().from(signInFailure).where(inArray(signInFailure.keyHash, [k.account, k.pair, k.address]));
    const recent = new Map(rows.filter((r) => now - r.lastFailedAt.getTime() < FORGET_MS).map((r) => [r.keyHash, r]));
    const byAddress = recent.get(k.address);
    const byAccount = recent.get(k.account);
    const addressWait = byAddress ? waitAfter(byAddress.failures, byAddress.lastFailedAt, FREE_PER_ADDRESS, now) : 0;
    const accountWait = byAccount && recent.has(k.pair) ? waitAfter(byAccount.failures, byAccount.lastFailedAt, FREE_PER_ACCOUNT, now) : 0;
    return Math.max(addressWait, accountWait);
  }

  /** Counts a failed sign-in against the account, the pair and the address (one statement). */
  async failed(email: string, address: string): Promise<void> {
    const k = keysOf(email, address);
    const forgetBefore = new Date(Date.now() - FORGET_MS).toISOString();
    await this.db
      .insert(signInFailure)
      .values([k.account, k.pair, k.address].map((keyHash) => ({ keyHash, failures: 1, lastFailedAt: new Date() })))
      .onConflictDoUpdate({
        target: signInFailure.keyHash,
        set: {
          failures: sql`case when ${signInFailure.lastFailedAt} < ${forgetBefore}::timestamptz then 1 else ${signInFailure.failures} + 1 end`,
          lastFailedAt: sql`excluded.last_failed_at`,
        },
      });
    if (Date.now() - this.lastSweep > 3600_000) await this.sweep();
  }

  /** A success clears what this address failed on this account (not the account's or address's totals). */
  async succeeded(email: string, address: string): Promise<void> {
    await this.db.delete(signInFailure).where(inArray(signInFailure.keyHash, [keysOf(email, address).pair]));
  }

  /** Drops failures old enough to be forgotten. */
  async sweep(now = Date.now()): Promise<void> {
    this.lastSweep = now;
    await this.db.delete(signInFailure).where(sql`${signInFailure.lastFailedAt} < ${new Date(now - FORGET_MS).toISOString()}::timestamptz`);
  }
}
