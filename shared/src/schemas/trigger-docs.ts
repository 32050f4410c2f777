/**
 * How runs start and how their end is reported, as data for GET /api/workflows/catalog: each
 * trigger.* node lists the trigger records that start a run there (with their config and, for
 * the hook, the request a caller sends: headers and body) and the notifications a run sends when
 * it ends (the outbound webhook's headers and bodies, the e-mail).
 */
import { Type } from "@sinclair/typebox";

export const HeaderDoc = Type.Object({ name: Type.String(), required: Type.Boolean(), description: Type.String() });
export type HeaderDoc = typeof HeaderDoc.static;

/** One HTTP request as the catalog documents it. */
export const HttpDoc = Type.Object({
  method: Type.String(),
  url: Type.String({ description: "a path of this service, or where the URL comes from (paramsJson.notifyUrl)" }),
  headers: Type.Array(HeaderDoc),
  body: Type.Unknown({ description: "JSON schema of the body" }),
  answer: Type.Optional(Type.Unknown({ description: "JSON schema of `data` in the answer, or what the receiver must answer" })),
  description: Type.String(),
});
export type HttpDoc = typeof HttpDoc.static;

export const TriggerDoc = Type.Object({
  type: Type.Union([Type.Literal("manual"), Type.Literal("webhook"), Type.Literal("schedule"), Type.Literal("watch")], { description: "the run's `trigger`; webhook, schedule and watch are trigger records (PUT /api/workflows/{id}/triggers)" }),
  summary: Type.String(),
  config: Type.Union([Type.Unknown({ description: "JSON schema of the trigger record's config" }), Type.Null()]),
  request: Type.Union([HttpDoc, Type.Null()], { description: "the request that starts a run, when one does" }),
});
export type TriggerDoc = typeof TriggerDoc.static;

export const NotificationDoc = Type.Object({
  channel: Type.Union([Type.Literal("webhook"), Type.Literal("email")]),
  summary: Type.String(),
  request: Type.Union([HttpDoc, Type.Null()], { description: "what the service sends (webhook)" }),
});
export type NotificationDoc = typeof NotificationDoc.static;
