/** Sign-up/in/out (Better Auth's routes), the account, its credit ledger and API tokens (contract section 2). */
import type { Account, AccountDeleted, AuthUser, CreatedToken, CreateTokenBody, LedgerEntry, SessionInfo, SessionsRevoked, SignedOut, TokenInfo, TokenRevoked } from "../schemas/account";
import type { Transport } from "./transport";
import { enc, qs } from "./query";

export function authApi(t: Transport) {
  return {
    signUp: (b: { name: string; email: string; password: string }) => t.call<AuthUser>("POST", "/api/auth/sign-up/email", b),
    /** Keeps the session cookie (outside browsers) for the calls that follow. */
    signIn: (b: { email: string; password: string }) => t.call<AuthUser>("POST", "/api/auth/sign-in/email", b),
    signOut: () => t.call<SignedOut>("POST", "/api/auth/sign-out", {}),
    /** Refused (400) for a wrong current password or a new one on the common-password list; other sessions end by default. */
    changePassword: (b: { currentPassword: string; newPassword: string; revokeOtherSessions?: boolean }) =>
      t.call<{ token: string | null }>("POST", "/api/auth/change-password", { revokeOtherSessions: true, ...b }),
    /** E-mails a one-time reset link (409 INVALID_STATE where the server sends no e-mail). */
    requestPasswordReset: (email: string) => t.call<{ status: boolean; message?: string }>("POST", "/api/auth/request-password-reset", { email }),
    /** The reset link's token and the new password; every session of the account ends. */
    resetPassword: (token: string, newPassword: string) => t.call<{ status: boolean }>("POST", "/api/auth/reset-password", { token, newPassword }),
  };
}

export function accountApi(t: Transport) {
  return {
    get: () => t.call<Account>("GET", "/api/account"),
    /** The credit ledger, newest first. */
    credits: (limit?: number) => t.call<LedgerEntry[]>("GET", `/api/account/credits${qs({ limit })}`),
    /** The signed-in sessions (session cookie only), most recently used first. */
    sessions: () => t.call<SessionInfo[]>("GET", "/api/account/sessions"),
    revokeSession: (id: string) => t.call<SessionsRevoked>("DELETE", `/api/account/sessions/${enc(id)}`),
    revokeOtherSessions: () => t.call<SessionsRevoked>("POST", "/api/account/sessions/revoke-others", {}),
    /** Deletes the account and everything it owns; needs its password. */
    delete: (password: string) => t.call<AccountDeleted>("DELETE", "/api/account", { password }),
  };
}

/** Token management needs the session (a token cannot mint tokens). */
export function tokensApi(t: Transport) {
  return {
    /** The plain `vk_` token is in this answer only. */
    create: (b: CreateTokenBody) => t.call<CreatedToken>("POST", "/api/tokens", b),
    list: () => t.call<TokenInfo[]>("GET", "/api/tokens"),
    revoke: (id: string) => t.call<TokenRevoked>("DELETE", `/api/tokens/${enc(id)}`),
  };
}
