/** Configuration endpoints' models (contract section 3). */
import { Type, type Static } from "@sinclair/typebox";

export const ConfigMap = Type.Record(Type.String(), Type.Unknown(), { description: "key -> effective value" });

export const AdminConfig = Type.Object({
  batch_configs: ConfigMap,
  workflow_configs: ConfigMap,
  platform_configs: ConfigMap,
});
export type AdminConfig = Static<typeof AdminConfig>;

export const KeysQuery = Type.Object({
  keys: Type.Optional(Type.String({ maxLength: 2000, description: "Comma-separated key names; unknown or non-public names are left out" })),
});

export const AdminCreditsBody = Type.Object(
  {
    email: Type.String({ format: "email", maxLength: 320 }),
    amount: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: "grant (>0) or debit (<0)" }),
    reason: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type AdminCreditsBody = Static<typeof AdminCreditsBody>;

export const NowBody = Type.Object({ now: Type.Optional(Type.String({ format: "date-time" })) }, { additionalProperties: false });
export type NowBody = Static<typeof NowBody>;
export type ConfigMap = Static<typeof ConfigMap>;

export const AdminCreditsResult = Type.Object({ userId: Type.String(), email: Type.String(), amount: Type.Integer(), credits: Type.Integer() });
export type AdminCreditsResult = Static<typeof AdminCreditsResult>;

export const RetentionResult = Type.Object({ deletedFiles: Type.Integer(), freedBytes: Type.Integer(), uploadCutoff: Type.String(), outputCutoff: Type.String() });
export type RetentionResult = Static<typeof RetentionResult>;
