/** The signed-in account (null when signed out) and the sign-in, sign-up and sign-out actions. */
import type { Account } from "@vektor/shared/schemas/account";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "@tanstack/react-router";
import { currentSession } from "./adapter";
import { client, isUnauthorized } from "./client";

export const ACCOUNT_KEY = ["account"] as const;

/** The account query, shared by the screens and the routes' sign-in check (router.tsx). */
export const accountQuery = queryOptions<Account | null>({
  queryKey: ACCOUNT_KEY,
  queryFn: async () => {
    if (!(await currentSession())) return null;
    try {
      return await client.me.get();
    } catch (err) {
      if (isUnauthorized(err)) return null;
      throw err;
    }
  },
  staleTime: 30_000,
  retry: false,
});

/** The account, or null when nobody is signed in (or the server cannot be reached). */
export const useAccount = () => useQuery(accountQuery);

export interface Credentials {
  email: string;
  password: string;
}

/** Signs in, or creates the account (named after the e-mail's local part) and signs in. */
export function useSignIn() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async ({ mode, email, password }: Credentials & { mode: "sign-in" | "sign-up" }) => {
      if (mode === "sign-up") await client.auth.signUp({ name: email.split("@")[0] || email, email, password });
      else await client.auth.signIn({ email, password });
    },
    onSuccess: () => queries.invalidateQueries(),
  });
}

export function useSignOut() {
  const queries = useQueryClient();
  const router = useRouter();
  return useMutation({
    mutationFn: () => client.auth.signOut(),
    // Everything cached belonged to the account that left; the open route checks again who may see it.
    onSuccess: () => {
      queries.removeQueries();
      queries.setQueryData(ACCOUNT_KEY, null);
      void router.invalidate();
    },
  });
}
