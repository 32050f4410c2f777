/** Public configuration (whitelisted keys) and the admin configuration endpoints. */
import { AdminConfig, ConfigMap, KeysQuery, SettingInfo } from "@vektor/shared/schemas/config";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { jsonBody } from "../../http/core";
import { authMacro, routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import { parseKeys } from "../../http/query";
import type { Services } from "../../services";
import { CONFIG_GROUPS, settingInfos } from "../../config/keys";

const PUBLIC_VIEWS = {
  public: "Whitelisted site configuration (sign-up grant, retention)",
  flags: "Public feature flags (the *.enabled switches)",
  thresholds: "Public thresholds (limits, costs, sizes in MB)",
} as const;

export function configModule(s: Pick<Services, "callers" | "config">) {
  const { doc, docJson } = routeDocs();
  const publicView = (view: keyof typeof PUBLIC_VIEWS) =>
    new Elysia().get(`/api/config/${view}`, async ({ query }) => ok(await s.config.exposed(view, parseKeys(query.keys))), {
      query: KeysQuery,
      ...doc({ summary: PUBLIC_VIEWS[view], tags: ["Configuration"], auth: "public", data: ConfigMap }),
    });
  return new Elysia()
    .use(authMacro(s.callers))
    .use(jsonBody)
    .use(publicView("public"))
    .use(publicView("flags"))
    .use(publicView("thresholds"))
    .get(
      "/api/admin/config",
      async () => {
        return ok(await s.config.grouped());
      },
      doc({ summary: "Every configuration key by group (secrets included)", tags: ["Admin"], auth: "admin", data: AdminConfig }),
    )
    .get("/api/admin/config/keys", () => ok(settingInfos()), {
      ...doc({
        summary: "What each configuration key means: description, unit, kind and range",
        description: "One entry per key, in the order the admin screen shows them: its group, a description in words, the unit a number counts (files, MB, credits, hours, ...), its kind (switch, number, text, list), its range (minimum and maximum, or maxLength and maxItems) and its default. A value outside the range is refused by PUT /api/admin/config/{group} with a 400 VALIDATION_ERROR whose message is one sentence naming the setting and the range.",
        tags: ["Admin"],
        auth: "admin",
        data: Type.Array(SettingInfo),
      }),
    })
    .put(
      "/api/admin/config/:group",
      async ({ caller, params, body }) => {
        return ok(await s.config.update(params.group, body as Record<string, unknown>, caller.id));
      },
      {
        params: Type.Object({ group: Type.String({ description: CONFIG_GROUPS.join(" | ") }) }),
        ...docJson(Type.Record(Type.String(), Type.Unknown(), { description: "Partial { key: value } of the group; validated as a whole, applied at once, audit-logged" }), {
          summary: "Change configuration keys of one group", tags: ["Admin"], auth: "admin", data: ConfigMap }),
      },
    );
}
