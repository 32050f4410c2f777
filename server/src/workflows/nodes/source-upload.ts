/**
 * source.upload: the files a run works on. At the top of a run: the run's own files, plus the
 * fixed `fileIds`, plus (with `sinceLastRun`) the owner's files confirmed since the previous run
 * whose names match `prefix`/`suffix`. Inside a sub-workflow: what the op.workflow step received.
 */
import { Type } from "@sinclair/typebox";
import { FORMATS } from "@vektor/shared/formats";
import { matchesPrefixSuffix, uniqueFiles } from "@vektor/shared/workflows/files";
import type { FileRef, NodeKind, StepContext } from "./types";

const params = Type.Object(
  {
    fileIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 1000, description: "Files added to every run (the owner's UPLOADED files; others are left out)" })),
    sinceLastRun: Type.Optional(Type.Boolean({ default: false, description: "Also take the owner's uploads confirmed since the previous run (all uploads on the first run); job outputs are not uploads" })),
    prefix: Type.Optional(Type.String({ maxLength: 255, description: "With sinceLastRun: only names starting with this (case-insensitive)" })),
    suffix: Type.Optional(Type.String({ maxLength: 255, description: "With sinceLastRun: only names ending with this, e.g. .pdf (case-insensitive)" })),
  },
  { additionalProperties: false },
);

async function collect(ctx: StepContext) {
  const p = ctx.params as { fileIds?: string[]; sinceLastRun?: boolean; prefix?: string; suffix?: string };
  const fixed = p.fileIds?.length ? await ctx.files.byIds(p.fileIds) : [];
  if (p.fileIds && fixed.length < p.fileIds.length) ctx.log(`${p.fileIds.length - fixed.length} of the fixed fileIds are not uploaded files of the owner and were left out`);
  let recent: FileRef[] = [];
  if (p.sinceLastRun) {
    const since = await ctx.previousRunAt();
    recent = (await ctx.files.uploadedSince(since)).filter((f) => matchesPrefixSuffix(f.filename, p.prefix, p.suffix));
    ctx.log(`${recent.length} file(s) uploaded since ${since?.toISOString() ?? "the start"} match`);
  }
  return uniqueFiles([...(await ctx.runInputs()), ...fixed, ...recent]);
}

/** The node kind `source.upload`. */
export const sourceUpload: NodeKind = {
  description: {
    type: "source.upload",
    category: "source",
    title: "Uploaded files",
    description: "The run's files, plus fixed files (fileIds) and, with sinceLastRun, the files uploaded since the previous run that match prefix/suffix. Inside a sub-workflow: the files its op.workflow node received.",
    params,
    // Any uploaded file, so every known format (validation passes a nested one's inputs through instead).
    io: { accepts: "any", produces: FORMATS.map((f) => f.id) },
    chargedSteps: 0,
    inline: true,
  },
  execute: async (ctx) => ({ kind: "done", outputs: ctx.nested ? ctx.inputs : await collect(ctx) }),
};
