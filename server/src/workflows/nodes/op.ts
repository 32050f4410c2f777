/**
 * op.<slug>: one node kind per tool of the registry, made by `opNode`. Its params are the tool's
 * params; its step asks the engine for tool jobs: one per accepted input file, or, for a tool
 * that takes several files in one run (pdf.merge), one job over all of them.
 */
import { ToolError, type ToolManifest } from "@vektor/shared/tools/manifest";
import { chosenFormats as choiceFormats } from "@vektor/shared/workflows/formats";
import type { ToolEntry } from "@vektor/wasm-tools";
import { fileFormats } from "../files";
import type { FileRef, NodeKind, StepContext, StepResult } from "./types";

/**
 * The output formats a tool's params pick (cad.convert `format: "stl"`, gis.convert `to:
 * "gpkg"`), or undefined when none does; the rule is shared with the web editor.
 */
export function chosenFormats(manifest: ToolManifest, params: Record<string, unknown>): string[] | undefined {
  return choiceFormats(manifest.params, manifest.io.produces, params);
}

function accepted(manifest: ToolManifest, ctx: StepContext): FileRef[] {
  const accepts = new Set<string>(manifest.io.accepts);
  return ctx.inputs.filter((file) => {
    if (fileFormats(file).some((f) => accepts.has(f))) return true;
    ctx.log(`Skipped "${file.filename}" (${file.format ?? "unknown format"}): ${manifest.slug} accepts ${manifest.io.accepts.join(", ")}`);
    return false;
  });
}

/** One job over all the files, for tools that combine them; wrong counts fail the step with a reason. */
function combinedJob(manifest: ToolManifest, files: FileRef[], params: Record<string, unknown>): StepResult {
  const min = manifest.io.minInputs ?? 1;
  const max = manifest.io.maxInputs ?? 1;
  if (files.length < min) throw new ToolError("INPUT_INVALID", `${manifest.slug} needs at least ${min} files; this step got ${files.length}`);
  if (files.length > max) throw new ToolError("INPUT_INVALID", `${manifest.slug} takes at most ${max} files; this step got ${files.length}`);
  return { kind: "jobs", jobs: [{ type: manifest.slug, inputFileIds: files.map((f) => f.id), params }] };
}

/** The node kind `op.<slug>` for one tool of the registry. */
export function opNode(entry: ToolEntry): NodeKind {
  const { manifest } = entry;
  return {
    description: {
      type: `op.${manifest.slug}`,
      category: "op",
      title: manifest.title,
      description: manifest.description,
      params: manifest.params,
      io: { accepts: manifest.io.accepts, produces: manifest.io.produces, minInputs: manifest.io.minInputs ?? 1, maxInputs: manifest.io.maxInputs ?? 1 },
      chargedSteps: 1,
      inline: true,
    },
    producesFor: (params) => chosenFormats(manifest, params),
    execute: async (ctx) => {
      const files = accepted(manifest, ctx);
      // No files is not an error: a run with no inputs succeeds with no outputs.
      if (files.length === 0) return { kind: "jobs", jobs: [] };
      if ((manifest.io.maxInputs ?? 1) > 1) return combinedJob(manifest, files, ctx.params);
      return { kind: "jobs", jobs: files.map((f) => ({ type: manifest.slug, inputFileIds: [f.id], params: ctx.params })) };
    },
  };
}
