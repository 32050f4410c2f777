/**
 * logic.filter: keeps the inputs that match every condition given (format, file-name glob, size
 * range); a condition left out matches everything. The decision is shared with the browser runner.
 */
import { Type } from "@sinclair/typebox";
import { FORMATS } from "@vektor/shared/formats";
import { filterFiles, type FilterRule } from "@vektor/shared/workflows/nodes";
import type { NodeKind } from "./types";

export { globToRegExp, matchesFilter, type FilterRule } from "@vektor/shared/workflows/nodes";

const params = Type.Object(
  {
    formats: Type.Optional(Type.Array(Type.Union(FORMATS.map((f) => Type.Literal(f.id))), { minItems: 1, maxItems: FORMATS.length, description: "Keep files of these formats" })),
    glob: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "Keep files whose name matches: * is any run of characters, ? one character (case-insensitive)", examples: ["*.pdf", "scan-??.tif"] })),
    minSize: Type.Optional(Type.Integer({ minimum: 0, description: "Keep files of at least this many bytes" })),
    maxSize: Type.Optional(Type.Integer({ minimum: 0, description: "Keep files of at most this many bytes" })),
  },
  { additionalProperties: false },
);

/** The node kind `logic.filter`. */
export const logicFilter: NodeKind = {
  description: {
    type: "logic.filter",
    category: "logic",
    title: "Filter files",
    description: "Passes on the files that match every condition set: formats, a file-name glob (* and ?), and a size range in bytes.",
    params,
    io: { accepts: "any", produces: "inputs" },
    chargedSteps: 0,
    inline: true,
  },
  producesFor: (p) => (p as FilterRule).formats,
  execute: async (ctx) => {
    const { kept, log } = filterFiles(ctx.inputs, ctx.params as FilterRule);
    ctx.log(log);
    return { kind: "done", outputs: kept };
  },
};
