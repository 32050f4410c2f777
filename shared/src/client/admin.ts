/** Public configuration, system endpoints and the admin area (contract section 3). */
import type { AdminConfig, AdminCreditsBody, AdminCreditsResult, ConfigMap, RetentionResult, SettingInfo } from "../schemas/config";
import type { PasswordSet } from "../schemas/account";
import type { Health, PublicStatus } from "../schemas/system";
import type { DispatchResult } from "../schemas/trigger";
import { enc, qs } from "./query";
import type { Transport } from "./transport";

export type ConfigGroup = keyof AdminConfig;

export function configApi(t: Transport) {
  const view = (name: string) => (keys?: string[]) => t.call<ConfigMap>("GET", `/api/config/${name}${qs({ keys: keys?.join(",") })}`);
  return { public: view("public"), flags: view("flags"), thresholds: view("thresholds") };
}

export function systemApi(t: Transport) {
  return {
    health: () => t.call<Health>("GET", "/api/health"),
    status: () => t.call<PublicStatus>("GET", "/status"),
    /** The OpenAPI 3.1 description (raw, not enveloped). */
    openapi: async () => (await t.fetchOk("/openapi.json")).json() as Promise<Record<string, unknown>>,
  };
}

/** Admin endpoints need an admin's session. */
export function adminApi(t: Transport) {
  return {
    /** A user's new password where no reset e-mail can be sent; the user's sessions end. */
    setUserPassword: (userId: string, newPassword: string) => t.call<PasswordSet>("POST", `/api/admin/users/${enc(userId)}/password`, { newPassword }),
    config: () => t.call<AdminConfig>("GET", "/api/admin/config"),
    /** What each key means: description, unit, kind and range (for a form that explains them). */
    configKeys: () => t.call<SettingInfo[]>("GET", "/api/admin/config/keys"),
    /** Partial `{ key: value }` of one group; answers the group's effective values. */
    setConfig: (group: ConfigGroup | (string & {}), patch: Record<string, unknown>) => t.call<ConfigMap>("PUT", `/api/admin/config/${enc(group)}`, patch),
    grantCredits: (b: AdminCreditsBody) => t.call<AdminCreditsResult>("POST", "/api/admin/credits", b),
    dispatchSchedules: (now?: string) => t.call<DispatchResult>("POST", "/api/admin/system/dispatch-schedules", now ? { now } : {}),
    runRetention: (now?: string) => t.call<RetentionResult>("POST", "/api/admin/system/retention", now ? { now } : {}),
  };
}
