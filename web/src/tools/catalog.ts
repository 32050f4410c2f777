/**
 * The tools the Convert screen offers: those this device's worker runs and those the server
 * runs (the same registry, so usually the same list), merged by slug, each marked with where it
 * can run. Either list may be missing: offline there is no server list, and a browser that
 * cannot start the worker has no device list. Pure; the hook that fetches both is use-catalog.ts.
 */
import { candidateFormats } from "@vektor/shared/formats";
import type { ToolDetail } from "@vektor/shared/schemas/job";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import type { JsonSchema } from "../components/params-form";

export interface ToolInfo {
  slug: string;
  family: string;
  title: string;
  description: string;
  accepts: string[];
  produces: string[];
  minInputs: number;
  maxInputs: number;
  params: JsonSchema;
  timeoutMs?: number;
  /** The tool's own input limit (its manifest's maxInputBytes), which this device's run holds to. */
  maxInputBytes?: number;
  /** Its engine's measured memory per input byte (manifest `limits.memoryPerInputByte`): what this device checks a file against its memory with (memory.ts). */
  memoryPerInputByte?: number;
  /** The largest input the server takes for it (GET /api/tools/lookup: within TOOL_MAX_INPUT_MB). */
  serverMaxBytes?: number;
  onDevice: boolean;
  onServer: boolean;
}

function fromManifest(m: ToolManifest): ToolInfo {
  return {
    slug: m.slug,
    family: m.family,
    title: m.title,
    description: m.description,
    accepts: [...m.io.accepts],
    produces: [...m.io.produces],
    minInputs: m.io.minInputs ?? 1,
    maxInputs: m.io.maxInputs ?? 1,
    params: m.params as unknown as JsonSchema,
    timeoutMs: m.limits?.timeoutMs,
    maxInputBytes: m.limits?.maxInputBytes,
    memoryPerInputByte: m.limits?.memoryPerInputByte,
    onDevice: true,
    onServer: false,
  };
}

function fromDetail(d: ToolDetail): ToolInfo {
  const { accepts, produces, minInputs, maxInputs } = d.io;
  return { slug: d.slug, family: d.family, title: d.title, description: d.description, accepts, produces, minInputs, maxInputs, params: d.params as JsonSchema, serverMaxBytes: d.maxInputBytes, memoryPerInputByte: d.memoryPerInputByte, onDevice: false, onServer: true };
}

export function mergeTools(device: ToolManifest[] | undefined, server: ToolDetail[] | undefined): ToolInfo[] {
  const bySlug = new Map<string, ToolInfo>();
  for (const m of device ?? []) bySlug.set(m.slug, fromManifest(m));
  for (const d of server ?? []) {
    const known = bySlug.get(d.slug);
    bySlug.set(d.slug, known ? { ...known, onServer: true, serverMaxBytes: d.maxInputBytes } : fromDetail(d));
  }
  return [...bySlug.values()];
}

/** A file as far as choosing a tool goes: a browser File or a stored file's name and type. */
export interface NamedFile {
  name: string;
  type: string;
}

/** Tools that accept every one of `files` (by MIME type and extension). */
export function toolsFor(tools: ToolInfo[], files: NamedFile[]): ToolInfo[] {
  if (files.length === 0) return [];
  const formats = files.map((f) => new Set(candidateFormats(f.type, f.name).map((c) => c.id as string)));
  return tools.filter((t) => formats.every((set) => t.accepts.some((id) => set.has(id))));
}

/** Why `tool` cannot take `count` files, or null. */
export function countProblem(tool: ToolInfo, count: number): string | null {
  const { minInputs: min, maxInputs: max } = tool;
  if (count >= min && count <= max) return null;
  if (min === max) return `${tool.title} takes exactly ${min} file${min === 1 ? "" : "s"}; ${count} chosen.`;
  return `${tool.title} takes ${min} to ${max} files; ${count} chosen.`;
}
