/**
 * Workflow triggers (spec "Workflows" trigger config, "Authentication" webhook signing, contract
 * section 7): the trigger record, the PUT body and answer, the hook body and the schedule
 * dispatcher's answer. The secret appears only in the PUT answer.
 */
import { Type } from "@sinclair/typebox";

export const TRIGGER_TYPES = ["webhook", "schedule", "watch"] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** Signature age accepted by the hook, both ways (spec "Limits"). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
export const SIGNATURE_HEADER = "X-Service-Signature";
export const TIMESTAMP_HEADER = "X-Service-Timestamp";

export const TriggerConfig = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "schedule: `{ cron }`, a 5-field cron expression (minute hour day-of-month month day-of-week) read in UTC. watch: `{ prefix?, suffix? }`, at least one non-empty (case-insensitive match on the file name). webhook: `{}`. Other keys are refused.",
});

export const Trigger = Type.Object({
  id: Type.String(),
  workflowId: Type.String(),
  type: Type.Union(TRIGGER_TYPES.map((t) => Type.Literal(t))),
  config: TriggerConfig,
  createdAt: Type.String({ format: "date-time" }),
  updatedAt: Type.String({ format: "date-time", description: "the last PUT (which also rotated the secret)" }),
});
export type Trigger = typeof Trigger.static;

export const PutTriggerBody = Type.Object(
  {
    type: Type.Union(TRIGGER_TYPES.map((t) => Type.Literal(t)), { description: "webhook, schedule or watch" }),
    config: Type.Optional(TriggerConfig),
  },
  { additionalProperties: false },
);
export type PutTriggerBody = typeof PutTriggerBody.static;

export const PutTriggerResult = Type.Object({
  id: Type.String(),
  secret: Type.String({ description: "shown only here; a new one on every PUT (the previous one stops working at once). Keys the webhook signature (and the legacy `secret` field)." }),
});

export const HookBody = Type.Object(
  {
    fileIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 1000, description: "the owner's UPLOADED files (default: none; source.upload params may still bring files)" })),
    secret: Type.Optional(Type.String({ maxLength: 200, description: "legacy form only (no signature headers): the webhook trigger's secret" })),
  },
  { additionalProperties: false },
);
export type HookBody = typeof HookBody.static;

export const DispatchResult = Type.Object({
  windowStart: Type.String({ format: "date-time" }),
  windowEnd: Type.String({ format: "date-time", description: "exclusive" }),
  triggers: Type.Integer({ description: "schedule triggers looked at" }),
  fires: Type.Array(Type.Object({ triggerId: Type.String(), workflowId: Type.String(), fireAt: Type.String({ format: "date-time" }) }), { description: "fire times queued (or brought forward) by this call: one at or before the dispatch's `now` runs at once, a later one at its time" }),
});
export type DispatchResult = typeof DispatchResult.static;

export type PutTriggerResult = typeof PutTriggerResult.static;

export const TriggerDeleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
export type TriggerDeleted = typeof TriggerDeleted.static;

/** The hook's answer: the run it started. */
export const HookStarted = Type.Object({ runId: Type.String(), credits: Type.Integer({ description: "charged for this run" }) });
export type HookStarted = typeof HookStarted.static;
