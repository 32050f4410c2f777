/**
 * sink.rename: gives each input a new name from a pattern, as a new file (the original is left
 * alone); the renamed files are outputs of the run.
 */
import { Type } from "@sinclair/typebox";
import { RENAME_PATTERN, renamePlan } from "@vektor/shared/workflows/nodes";
import type { NodeKind } from "./types";

export { RENAME_TOKENS, renameFile } from "@vektor/shared/workflows/nodes";

/** The node kind `sink.rename`. */
export const sinkRename: NodeKind = {
  description: {
    type: "sink.rename",
    category: "sink",
    title: "Rename",
    description: "Renames each file it receives with a pattern: {name} (without extension), {ext} (with its dot), {index} (1, 2, ...), {date} (YYYY-MM-DD the run started, UTC). The renamed files are outputs of the run.",
    params: Type.Object(
      { pattern: Type.String({ minLength: 1, maxLength: 200, pattern: RENAME_PATTERN, default: "{name}{ext}", description: "New file name; placeholders {name}, {ext}, {index}, {date}", examples: ["{name}-{date}{ext}", "part-{index}{ext}"] }) },
      { additionalProperties: false },
    ),
    io: { accepts: "any", produces: "inputs" },
    chargedSteps: 0,
  },
  execute: async (ctx) => {
    const outputs = [];
    // The same name needs no copy: the file itself is the output.
    for (const { file, name, same } of renamePlan(ctx.inputs, ctx.params.pattern as string, ctx.startedAt)) outputs.push(same ? file : await ctx.files.copyAs(file, name));
    return { kind: "done", outputs };
  },
};
