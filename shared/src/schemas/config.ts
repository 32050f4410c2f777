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

export const RetentionResult = Type.Object({
  deletedFiles: Type.Integer(),
  freedBytes: Type.Integer(),
  uploadCutoff: Type.String(),
  outputCutoff: Type.String(),
  /** Leftovers of crashes and abandoned uploads in the local store (temp files, multipart folders) untouched for a day, removed. */
  leftoversRemoved: Type.Integer(),
  /** Ended jobs deleted: internal ones a day after they were queued, API calls' and upload-and-run's tool jobs after JOB_HISTORY_DAYS. */
  deletedJobs: Type.Integer(),
});
export type RetentionResult = Static<typeof RetentionResult>;

const orNull = <T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** One admin setting as the admin screen shows it: what it means, its unit and its range. */
export const SettingInfo = Type.Object({
  key: Type.String(),
  group: Type.String(),
  description: Type.String({ description: "what the setting does, in words" }),
  unit: orNull(Type.String({ description: "what a number counts: files, MB, credits, hours, ..." })),
  kind: Type.Union([Type.Literal("switch"), Type.Literal("number"), Type.Literal("text"), Type.Literal("list")], { description: "switch: true or false; number: a whole number; text: a string; list: an array of strings" }),
  minimum: orNull(Type.Integer()),
  maximum: orNull(Type.Integer()),
  maxLength: orNull(Type.Integer({ description: "of a text, or of each entry of a list" })),
  maxItems: orNull(Type.Integer({ description: "of a list" })),
  default: Type.Unknown(),
  secret: Type.Boolean({ description: "stored sealed; never shown on the public endpoints" }),
});
export type SettingInfo = Static<typeof SettingInfo>;
