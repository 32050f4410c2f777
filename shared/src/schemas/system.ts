/** Health and public status models (spec "System and configuration"). */
import { Type, type Static } from "@sinclair/typebox";

const Check = Type.Object({ ok: Type.Boolean(), ms: Type.Number(), error: Type.Optional(Type.String()) });

export const Health = Type.Object({
  status: Type.Literal("ok"),
  checks: Type.Object({ database: Check, storage: Check }),
  /** When the checks ran: passing checks are reused for up to a second, so a load balancer's probes cost no more than one check a second. */
  checkedAt: Type.String({ format: "date-time" }),
});
export type Health = Static<typeof Health>;

export const Ready = Type.Object({ status: Type.Literal("ready") });
export type Ready = Static<typeof Ready>;

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
