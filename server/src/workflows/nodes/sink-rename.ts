/**
 * sink.rename: gives each input a new name from a pattern, as a new file (the original is left
 * alone); the renamed files are outputs of the run.
 */
import { Type } from "@sinclair/typebox";
import { safeFilename, splitExtension } from "../files";
import type { NodeKind } from "./types";

/** The placeholders a rename pattern may use; anything else between braces is refused. */
export const RENAME_TOKENS = ["name", "ext", "index", "date"] as const;

const PATTERN = `^(?:[^{}]|\\{(?:${RENAME_TOKENS.join("|")})\\})*$`;

/**
 * The new name of `filename`, the `index`-th input (1-based), in a run started at `startedAt`:
 * `{name}` the name without its extension, `{ext}` the extension with its dot (or nothing),
 * `{index}`, `{date}` as YYYY-MM-DD (UTC). The result is made safe (no `/`, `\`, `..`, control
 * characters).
 */
export function renameFile(pattern: string, filename: string, index: number, startedAt: Date): string {
  const { stem, ext } = splitExtension(filename);
  const values: Record<string, string> = { name: stem, ext, index: String(index), date: startedAt.toISOString().slice(0, 10) };
  const renamed = pattern.replace(/\{(\w+)\}/g, (whole, token: string) => values[token] ?? whole);
  return safeFilename(renamed, safeFilename(filename));
}

/** The node kind `sink.rename`. */
export const sinkRename: NodeKind = {
  description: {
    type: "sink.rename",
    category: "sink",
    title: "Rename",
    description: "Renames each file it receives with a pattern: {name} (without extension), {ext} (with its dot), {index} (1, 2, ...), {date} (YYYY-MM-DD the run started, UTC). The renamed files are outputs of the run.",
    params: Type.Object(
      { pattern: Type.String({ minLength: 1, maxLength: 200, pattern: PATTERN, default: "{name}{ext}", description: "New file name; placeholders {name}, {ext}, {index}, {date}", examples: ["{name}-{date}{ext}", "part-{index}{ext}"] }) },
      { additionalProperties: false },
    ),
    io: { accepts: "any", produces: "inputs" },
    chargedSteps: 0,
  },
  execute: async (ctx) => {
    const pattern = ctx.params.pattern as string;
    const outputs = [];
    for (const [i, file] of ctx.inputs.entries()) {
      const name = renameFile(pattern, file.filename, i + 1, ctx.startedAt);
      // The same name needs no copy: the file itself is the output.
      outputs.push(name === file.filename ? file : await ctx.files.copyAs(file, name));
    }
    return { kind: "done", outputs };
  },
};
