/** The tool registry as the API shows it: one entry per tool (REST and MCP read the same one). */
import { inputLimit } from "@vektor/shared/tools/limits";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { listManifests } from "@vektor/wasm-tools";

/** A tool with its params schema and its input limit on a server whose tools read at most `serverMaxBytes` (GET /api/tools/lookup). */
export function detailOf(m: ToolManifest, serverMaxBytes: number) {
  return {
    slug: m.slug,
    family: m.family,
    title: m.title,
    description: m.description,
    io: { accepts: [...m.io.accepts], produces: [...m.io.produces], minInputs: m.io.minInputs ?? 1, maxInputs: m.io.maxInputs ?? 1 },
    params: m.params,
    deterministic: m.deterministic,
    maxInputBytes: inputLimit(m, serverMaxBytes),
    ...(m.limits?.memoryPerInputByte !== undefined ? { memoryPerInputByte: m.limits.memoryPerInputByte } : {}),
  };
}

/** The lightweight tool index (GET /api/config/tools-index and the MCP tool list_tools read this one registry). */
export function toolIndex() {
  return listManifests().map((m) => ({ slug: m.slug, family: m.family, title: m.title, accepts: [...m.io.accepts], produces: [...m.io.produces] }));
}
