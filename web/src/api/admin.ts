/**
 * The admin area: the effective configuration by group, a group's keys saved, credits granted.
 * A saved setting or a grant may change anything the app shows (limits, flags, a balance, the
 * admin's own included), so both refresh every query.
 */
import type { AdminCreditsBody } from "@vektor/shared/schemas/config";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { client } from "./client";

export const useAdminConfig = () => useQuery({ queryKey: ["admin-config"], queryFn: () => client.admin.config() });

/** What each setting means: description, unit, kind, range, default. */
export const useConfigKeys = () => useQuery({ queryKey: ["admin-config-keys"], queryFn: () => client.admin.configKeys(), staleTime: Infinity });

export function useSaveConfig(group: string) {
  const queries = useQueryClient();
  return useMutation({ mutationFn: (patch: Record<string, unknown>) => client.admin.setConfig(group, patch), onSuccess: () => queries.invalidateQueries() });
}

export function useGrantCredits() {
  const queries = useQueryClient();
  return useMutation({ mutationFn: (body: AdminCreditsBody) => client.admin.grantCredits(body), onSuccess: () => queries.invalidateQueries() });
}
