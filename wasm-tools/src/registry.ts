/**
 * Every tool the service offers, as data: slug -> { manifest, load }. The server's tool
 * endpoints, the workflow catalog, MCP and the browser UI all read this one list. Adding a tool
 * is a folder under `src/<family>/` plus its entry in that family's `index.ts`; adding a family
 * is its `index.ts` plus one import and one spread below. Start-up fails loudly on a duplicate
 * slug or one that does not read `<family>.<operation>`.
 */
import { FORMATS } from "@vektor/shared/formats";
import type { ToolManifest, ToolRun } from "@vektor/shared/tools/manifest";
import { pdfTools } from "./pdf/index";
import { pointcloudTools } from "./pointcloud/index";
// one import line per family
import { cadTools } from "./cad/index";
import { gisTools } from "./gis/index";
import { pcbTools } from "./pcb/index";
import { bimTools } from "./bim/index";
import { mediaTools } from "./media/index";
import { drawingTools } from "./drawing/index";
import { meshTools } from "./mesh/index";

/** A tool: its manifest (data, cheap to import) and a loader for its run module (pulls in WASM glue). */
export interface ToolEntry {
  manifest: ToolManifest;
  /** `any`: each run has its own params type; execute() validates params against the manifest before calling it. */
  load: () => Promise<{ run: ToolRun<any> }>;
}

const SLUG = /^([a-z][a-z0-9]*)\.([a-z0-9]+(?:-[a-z0-9]+)*)$/;
const KNOWN_FORMATS = new Set<string>(FORMATS.map((f) => f.id));

/** All tools, family by family. */
export const TOOL_ENTRIES: readonly ToolEntry[] = checkRegistry([
  ...pdfTools,
  ...pointcloudTools,
  // one spread line per family
  ...cadTools,
  ...gisTools,
  ...pcbTools,
  ...bimTools,
  ...mediaTools,
  ...drawingTools,
  ...meshTools,
]);

const bySlug = new Map(TOOL_ENTRIES.map((entry) => [entry.manifest.slug, entry]));

/** The entry for `slug`, or undefined. */
export function getTool(slug: string): ToolEntry | undefined {
  return bySlug.get(slug);
}

/** Every manifest, in registry order (for catalogs and the UI). */
export function listManifests(): ToolManifest[] {
  return TOOL_ENTRIES.map((entry) => entry.manifest);
}

/** Throws on the first inconsistency; returns `entries` so the registry can be declared through it. */
export function checkRegistry(entries: ToolEntry[]): ToolEntry[] {
  const seen = new Set<string>();
  for (const { manifest, load } of entries) {
    const where = `tool registry: "${manifest.slug}"`;
    const match = SLUG.exec(manifest.slug);
    if (!match) throw new Error(`${where} does not match <family>.<operation> (lower-case, operation words joined by '-')`);
    if (match[1] !== manifest.family) throw new Error(`${where} is in family "${manifest.family}" but its slug says "${match[1]}"`);
    if (seen.has(manifest.slug)) throw new Error(`${where} is registered twice`);
    seen.add(manifest.slug);
    if (typeof load !== "function") throw new Error(`${where} has no load() for its run module`);
    if (manifest.params?.type !== "object") throw new Error(`${where} params must be a TypeBox Type.Object`);
    if (!manifest.io.accepts.length || !manifest.io.produces.length) throw new Error(`${where} must accept and produce at least one format`);
    for (const format of [...manifest.io.accepts, ...manifest.io.produces]) {
      if (!KNOWN_FORMATS.has(format)) throw new Error(`${where} names unknown format "${format}"`);
    }
    const min = manifest.io.minInputs ?? 1;
    const max = manifest.io.maxInputs ?? 1;
    if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 1 && max >= min)) {
      throw new Error(`${where} has an impossible input count ${min}..${max}`);
    }
  }
  return entries;
}
