/** API tokens, the credit ledger, the sessions, the password and the deletion of the signed-in account. */
import type { CreateTokenBody } from "@vektor/shared/schemas/account";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { client } from "./client";

const TOKENS_KEY = ["tokens"] as const;

export const useTokens = () => useQuery({ queryKey: TOKENS_KEY, queryFn: () => client.tokens.list() });

export function useCreateToken() {
  const queries = useQueryClient();
  return useMutation({ mutationFn: (body: CreateTokenBody) => client.tokens.create(body), onSuccess: () => queries.invalidateQueries({ queryKey: TOKENS_KEY }) });
}

export function useRevokeToken() {
  const queries = useQueryClient();
  return useMutation({ mutationFn: (id: string) => client.tokens.revoke(id), onSuccess: () => queries.invalidateQueries({ queryKey: TOKENS_KEY }) });
}

export const useLedger = () => useQuery({ queryKey: ["ledger"], queryFn: () => client.me.credits(100) });

const SESSIONS_KEY = ["sessions"] as const;

/** The account's signed-in sessions (this one marked `current`). */
export const useSessions = () => useQuery({ queryKey: SESSIONS_KEY, queryFn: () => client.me.sessions() });

/** Signs out one session (by id), or every other one (no id). */
export function useRevokeSessions() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (id?: string) => (id ? client.me.revokeSession(id) : client.me.revokeOtherSessions()),
    onSuccess: () => queries.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

/** Changes the password; the server ends every other session. */
export function useChangePassword() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (b: { currentPassword: string; newPassword: string }) => client.auth.changePassword(b),
    onSuccess: () => queries.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

/** Deletes the account (its password confirms it); the screen then reloads the app. */
export const useDeleteAccount = () => useMutation({ mutationFn: (password: string) => client.me.delete(password) });

export const useRequestPasswordReset = () => useMutation({ mutationFn: (email: string) => client.auth.requestPasswordReset(email) });

export const useResetPassword = () => useMutation({ mutationFn: (b: { token: string; newPassword: string }) => client.auth.resetPassword(b.token, b.newPassword) });
