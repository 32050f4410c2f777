/** logic.merge: joins branches. The engine already gives a step the union of its predecessors' outputs. */
import { Type } from "@sinclair/typebox";
import { mergeFiles } from "@vektor/shared/workflows/nodes";
import type { NodeKind } from "./types";

/** The node kind `logic.merge`. */
export const logicMerge: NodeKind = {
  description: {
    type: "logic.merge",
    category: "logic",
    title: "Merge branches",
    description: "Passes on every file its incoming branches produced, each once. It waits for all of them.",
    params: Type.Object({}, { additionalProperties: false }),
    io: { accepts: "any", produces: "inputs" },
    chargedSteps: 0,
    inline: true,
  },
  execute: async (ctx) => ({ kind: "done", outputs: mergeFiles(ctx.inputs) }),
};
