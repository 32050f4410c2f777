/** API tokens and the credit ledger of the signed-in account. */
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
