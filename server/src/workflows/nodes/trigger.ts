/**
 * trigger.manual / trigger.webhook / trigger.schedule: where a run starts. They do no work and
 * carry no params (a trigger's configuration is the workflow's trigger record, PUT
 * /api/workflows/{id}/triggers); they pass on what they were given, which at the top of a run
 * is nothing, and inside a sub-workflow is what its op.workflow step received.
 */
import { Type } from "@sinclair/typebox";
import type { NodeKind } from "./types";

function triggerNode(variant: "manual" | "webhook" | "schedule", title: string, description: string): NodeKind {
  return {
    description: {
      type: `trigger.${variant}`,
      category: "trigger",
      title,
      description,
      params: Type.Object({}, { additionalProperties: false }),
      io: { accepts: "any", produces: "inputs" },
      chargedSteps: 0,
      inline: true,
    },
    execute: async (ctx) => ({ kind: "done", outputs: ctx.inputs }),
  };
}

/** Started from the editor, the API or MCP. */
export const triggerManual = triggerNode("manual", "Manual start", "The run starts when someone runs the workflow (editor, API or MCP). Connect it to a source.upload node.");

/** Started by a signed call to POST /api/workflows/{id}/hook. */
export const triggerWebhook = triggerNode("webhook", "Webhook", "The run starts on a signed call to the workflow's hook URL; the call's fileIds are the run's files.");

/** Started by the workflow's cron schedule (UTC). */
export const triggerSchedule = triggerNode("schedule", "Schedule", "The run starts on the workflow's cron schedule (UTC). A scheduled run brings no files: use source.upload with sinceLastRun or fileIds.");
