/**
 * logic.filter: keeps the inputs that match every condition given (format, file-name glob, size
 * range); a condition left out matches everything.
 */
import { Type } from "@sinclair/typebox";
import { FORMATS } from "@vektor/shared/formats";
import { fileFormats } from "../files";
import type { FileRef, NodeKind } from "./types";

const params = Type.Object(
  {
    formats: Type.Optional(Type.Array(Type.Union(FORMATS.map((f) => Type.Literal(f.id))), { minItems: 1, maxItems: FORMATS.length, description: "Keep files of these formats" })),
    glob: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "Keep files whose name matches: * is any run of characters, ? one character (case-insensitive)", examples: ["*.pdf", "scan-??.tif"] })),
    minSize: Type.Optional(Type.Integer({ minimum: 0, description: "Keep files of at least this many bytes" })),
    maxSize: Type.Optional(Type.Integer({ minimum: 0, description: "Keep files of at most this many bytes" })),
  },
  { additionalProperties: false },
);

/** The conditions of a filter (its params). */
export interface FilterRule {
  formats?: readonly string[];
  glob?: string;
  minSize?: number;
  maxSize?: number;
}

/** A whole-name, case-insensitive matcher for a glob with `*` and `?` (everything else is literal). */
export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "is");
}

/** Whether `file` passes every condition of `rule`. */
export function matchesFilter(file: Pick<FileRef, "filename" | "size" | "format" | "mime">, rule: FilterRule): boolean {
  if (rule.formats && !fileFormats(file).some((f) => rule.formats!.includes(f))) return false;
  if (rule.glob !== undefined && !globToRegExp(rule.glob).test(file.filename)) return false;
  if (rule.minSize !== undefined && file.size < rule.minSize) return false;
  if (rule.maxSize !== undefined && file.size > rule.maxSize) return false;
  return true;
}

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
    const rule = ctx.params as FilterRule;
    const kept = ctx.inputs.filter((f) => matchesFilter(f, rule));
    ctx.log(`Kept ${kept.length} of ${ctx.inputs.length} file(s)`);
    return { kind: "done", outputs: kept };
  },
};
