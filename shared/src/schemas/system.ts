/** Health and public status models (spec "System and configuration"). */
import { Type, type Static } from "@sinclair/typebox";

const Check = Type.Object({ ok: Type.Boolean(), ms: Type.Number(), error: Type.Optional(Type.String()) });

export const Health = Type.Object({ status: Type.Literal("ok"), checks: Type.Object({ database: Check, storage: Check }) });
export type Health = Static<typeof Health>;

export const PublicStatus = Type.Object({
  service: Type.String(),
  version: Type.String(),
  startedAt: Type.String({ format: "date-time" }),
  uptimeSeconds: Type.Integer(),
  role: Type.String(),
  database: Type.String(),
  storage: Type.String(),
  queueDepth: Type.Integer(),
});
export type PublicStatus = Static<typeof PublicStatus>;
