/**
 * op.<slug>: one node kind per tool of the registry, made by `opNode`. Its params are the tool's
 * params; its step asks the engine for tool jobs: one per accepted input file, or, for a tool
 * that takes several files in one run (pdf.merge), one job over all of them (the split is
 * shared with the browser runner).
 */
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { chosenFormats as choiceFormats } from "@vektor/shared/workflows/formats";
import { opRuns } from "@vektor/shared/workflows/nodes";
import type { ToolEntry } from "@vektor/wasm-tools";
import type { NodeKind } from "./types";

/**
 * The output formats a tool's params pick (cad.convert `format: "stl"`, gis.convert `to:
 * "gpkg"`), or undefined when none does; the rule is shared with the web editor.
 */
export function chosenFormats(manifest: ToolManifest, params: Record<string, unknown>): string[] | undefined {
  return choiceFormats(manifest.params, manifest.io.produces, params);
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
    // No files is not an error: a run with no inputs succeeds with no outputs (no jobs).
    execute: async (ctx) => {
      const runs = opRuns({ slug: manifest.slug, ...manifest.io }, ctx.inputs, ctx.log);
      return { kind: "jobs", jobs: runs.map((files) => ({ type: manifest.slug, inputFileIds: files.map((f) => f.id), params: ctx.params })) };
    },
  };
}
