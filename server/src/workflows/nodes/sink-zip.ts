/** sink.zip: packs its inputs into one ZIP (STORE method, safe unique entry names), an output of the run. */
import { Type } from "@sinclair/typebox";
import { DEFAULT_ZIP_NAME, zipName } from "@vektor/shared/workflows/nodes";
import type { NodeKind } from "./types";

export { zipName } from "@vektor/shared/workflows/nodes";

/** The node kind `sink.zip`. */
export const sinkZip: NodeKind = {
  description: {
    type: "sink.zip",
    category: "sink",
    title: "ZIP",
    description: "Packs the files it receives into one ZIP file, an output of the run. No files: no ZIP.",
    params: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200, default: DEFAULT_ZIP_NAME, description: "File name of the ZIP (.zip is added when missing)" }) }, { additionalProperties: false }),
    io: { accepts: "any", produces: ["zip"] },
    chargedSteps: 0,
  },
  execute: async (ctx) => {
    if (ctx.inputs.length === 0) return { kind: "done", outputs: [] };
    return { kind: "done", outputs: [await ctx.files.zip(zipName(ctx.params.name as string), ctx.inputs)] };
  },
};
