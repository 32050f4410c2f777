/**
 * What a person expects of an account (issue 26): its sessions, signing out the others, an
 * admin setting a new password where no e-mail can be sent, and deleting the account with
 * everything it owns. Better Auth's internal adapter does the session and user writes, so its
 * database hooks run (they drop the cached callers of the account).
 */
import type { SessionInfo } from "@vektor/shared/schemas/account";
import { fail } from "@vektor/shared/errors";
import { and, desc, eq, gt } from "drizzle-orm";
import type { Auth } from "../../auth/better-auth";
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "../../auth/password-policy";
import { newId } from "../../lib/ids";
import type { Db } from "../../db/client";
import { auditLog, batch, file, session, verification } from "../../db/schema";
import type { Logger } from "../../log";
import type { ObjectStore } from "../../storage/types";

export interface AccountDeps {
  db: Db;
  auth: Auth;
  store: ObjectStore;
  log: Logger;
}

export class AccountService {
  constructor(private readonly d: AccountDeps) {}

  /** The session a request came with (null for a token or no session). */
  async currentSession(headers: Headers): Promise<{ id: string; token: string } | null> {
    const found = await this.d.auth.api.getSession({ headers }).catch(() => null);
    return found ? { id: found.session.id, token: found.session.token } : null;
  }

  /** The account's live sessions, most recently used first. */
  async sessions(userId: string, currentId: string | null): Promise<SessionInfo[]> {
    const rows = await this.d.db
      .select()
      .from(session)
      .where(and(eq(session.userId, userId), gt(session.expiresAt, new Date())))
      .orderBy(desc(session.updatedAt));
    return rows.map((r) => ({
      id: r.id,
      current: r.id === currentId,
      createdAt: r.createdAt.toISOString(),
      lastSeenAt: r.updatedAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      ipAddress: r.ipAddress,
      userAgent: r.userAgent,
    }));
  }

  /** Ends one of the account's sessions; another account's id is a 404. */
  async revoke(userId: string, sessionId: string): Promise<void> {
    const [row] = await this.d.db.select({ token: session.token }).from(session).where(and(eq(session.id, sessionId), eq(session.userId, userId)));
    if (!row) throw fail.notFound("Session");
    const ctx = await this.d.auth.$context;
    await ctx.internalAdapter.deleteSession(row.token);
  }

  /** Ends every session of the account but `keepId`; says how many ended. */
  async revokeOthers(userId: string, keepId: string | null): Promise<number> {
    const rows = await this.d.db.select({ id: session.id, token: session.token }).from(session).where(eq(session.userId, userId));
    const tokens = rows.filter((r) => r.id !== keepId).map((r) => r.token);
    if (tokens.length > 0) await (await this.d.auth.$context).internalAdapter.deleteSessions(tokens);
    return tokens.length;
  }

  /** An admin's new password for an account (no e-mail needed); its sessions end. */
  async setPassword(actorId: string, userId: string, newPassword: string): Promise<void> {
    if (isCommonPassword(newPassword)) throw fail.validation(COMMON_PASSWORD_MESSAGE);
    const ctx = await this.d.auth.$context;
    const found = await ctx.internalAdapter.findUserById(userId);
    if (!found) throw fail.notFound("User");
    const hash = await ctx.password.hash(newPassword);
    const accounts = await ctx.internalAdapter.findAccounts(userId);
    if (accounts.some((a) => a.providerId === "credential")) await ctx.internalAdapter.updatePassword(userId, hash);
    else await ctx.internalAdapter.linkAccount({ userId, providerId: "credential", accountId: userId, password: hash });
    await ctx.internalAdapter.deleteUserSessions(userId);
    await this.d.db.insert(auditLog).values({ id: newId("aud"), actorId, action: "user.password_set", target: userId, detail: {} });
  }

  /**
   * Deletes the account once its password is confirmed: the stored objects of its files and
   * batch ZIPs first (so a failure leaves a whole account to try again), then the user row, whose
   * foreign keys take files, jobs, batches, workflows, tokens and sessions with it. The credit
   * ledger stays, anonymised (migration 0015).
   */
  async delete(userId: string, password: string): Promise<{ files: number }> {
    await this.confirmPassword(userId, password);
    const files = await this.purge(userId);
    this.d.log.info({ userId, files }, "account deleted");
    return { files };
  }

  /** Deletes the account as `delete` does, unasked (the boot's made-up warm-up users); answers how many files it had. */
  async purge(userId: string): Promise<number> {
    const { db, store } = this.d;
    const files = await db.select({ key: file.storageKey, uploadId: file.uploadId }).from(file).where(eq(file.userId, userId));
    for (const f of files) {
      if (f.uploadId) await store.abortMultipart(f.key, f.uploadId).catch(() => {});
      await store.delete(f.key);
    }
    const zips = await db.select({ key: batch.zipKey }).from(batch).where(eq(batch.userId, userId));
    for (const z of zips) if (z.key) await store.delete(z.key);
    const ctx = await this.d.auth.$context;
    await ctx.internalAdapter.deleteUser(userId);
    // Password-reset links name the user in their value.
    await db.delete(verification).where(eq(verification.value, userId));
    return files.length;
  }

  private async confirmPassword(userId: string, password: string): Promise<void> {
    const ctx = await this.d.auth.$context;
    const credential = (await ctx.internalAdapter.findAccounts(userId)).find((a) => a.providerId === "credential");
    const right = credential?.password ? await ctx.password.verify({ hash: credential.password, password }) : false;
    if (!right) throw fail.validation("The password is not right");
  }
}
