/**
 * logic.approval: the run waits until the owner approves (the inputs pass on) or rejects (the
 * run fails with APPROVAL_REJECTED), or the wait times out (APPROVAL_TIMEOUT).
 */
import { Type } from "@sinclair/typebox";
import type { NodeKind } from "./types";

/** The longest wait a node may ask for: one year. */
export const MAX_APPROVAL_SECONDS = 31_536_000;

/** The node kind `logic.approval`. */
export const logicApproval: NodeKind = {
  description: {
    type: "logic.approval",
    category: "logic",
    title: "Approval",
    description: "Pauses the run until its owner approves or rejects it. Approved: the files pass on. Rejected or timed out: the run fails.",
    params: Type.Object(
      { timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_APPROVAL_SECONDS, description: "How long to wait; default: the service's workflow.approval_timeout_seconds_default" })) },
      { additionalProperties: false },
    ),
    io: { accepts: "any", produces: "inputs" },
    chargedSteps: 0,
  },
  // timeoutSeconds 0 means "the configured default": the node does not read configuration.
  execute: async (ctx) => ({ kind: "approval", timeoutSeconds: (ctx.params.timeoutSeconds as number | undefined) ?? 0 }),
};
