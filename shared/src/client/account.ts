/** Sign-up/in/out (Better Auth's routes), the account, its credit ledger and API tokens (contract section 2). */
import type { Account, AuthUser, CreatedToken, CreateTokenBody, LedgerEntry, SignedOut, TokenInfo, TokenRevoked } from "../schemas/account";
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
  };
}

export function accountApi(t: Transport) {
  return {
    get: () => t.call<Account>("GET", "/api/account"),
    /** The credit ledger, newest first. */
    credits: (limit?: number) => t.call<LedgerEntry[]>("GET", `/api/account/credits${qs({ limit })}`),
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
