/**
 * op.workflow: runs another of the owner's workflows inside this run. The engine inlines the
 * referenced graph (see expand.ts): its entry steps get this node's inputs, and this node waits
 * for its exit steps, so by the time it executes its inputs are the sub-workflow's outputs.
 */
import { Type } from "@sinclair/typebox";
import type { NodeKind } from "./types";

/** The node kind `op.workflow`. */
export const opWorkflow: NodeKind = {
  description: {
    type: "op.workflow",
    category: "op",
    title: "Run a workflow",
    description: "Runs another of your workflows on this node's inputs, inside the same run; its outputs are that workflow's outputs. Its op steps are charged with the run's. Sub-workflows nest at most 3 levels deep.",
    params: Type.Object({ workflowId: Type.String({ minLength: 1, maxLength: 100, description: "One of your workflows" }) }, { additionalProperties: false }),
    io: { accepts: "any", produces: "inputs" },
    chargedSteps: 0,
    inline: true,
  },
  execute: async (ctx) => ({ kind: "done", outputs: ctx.inputs }),
};
