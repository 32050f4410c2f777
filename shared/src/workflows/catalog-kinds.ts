/**
 * The node kinds as a catalog lists them (GET /api/workflows/catalog): a KindLookup for planning
 * and validating where the server's registry is not at hand (the browser runner, the editor).
 * A catalog carries its kinds' params as JSON schemas, so params get their schema's defaults
 * and the checks that need no schema engine (an object, no property the kind does not take);
 * a tool checks its own params again when it runs, on either engine.
 */
import type { CatalogNode } from "../schemas/workflow";
import { pickedFormats } from "./formats";
import type { KindLookup, ParamsCheck, SemanticKind } from "./registry";

interface ObjectSchema {
  properties?: Record<string, { default?: unknown }>;
  additionalProperties?: boolean;
}

/** `params` with `schema`'s defaults under them, or why they are not params at all. */
export function catalogParams(schema: unknown, params: unknown): ParamsCheck {
  if (params !== undefined && (params === null || typeof params !== "object" || Array.isArray(params))) {
    return { ok: false, message: "Invalid params: params must be an object", issues: [{ path: "/", message: "params must be an object" }] };
  }
  const { properties = {}, additionalProperties } = (schema ?? {}) as ObjectSchema;
  const given = (params ?? {}) as Record<string, unknown>;
  const unknown = additionalProperties === false ? Object.keys(given).filter((k) => !(k in properties)) : [];
  if (unknown.length) {
    return { ok: false, message: `Invalid params: ${unknown[0]}: Unexpected property`, issues: unknown.map((k) => ({ path: `/${k}`, message: "Unexpected property" })) };
  }
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(properties)) if (prop.default !== undefined) out[key] = structuredClone(prop.default);
  return { ok: true, params: { ...out, ...structuredClone(given) } };
}

/** A KindLookup over catalog entries. */
export function catalogKinds(entries: readonly CatalogNode[]): KindLookup {
  const byType = new Map(entries.map((e) => [e.type, e]));
  const kinds = new Map<string, SemanticKind>(
    entries.map((e) => [e.type, { type: e.type, io: e.io, chargedSteps: e.chargedSteps, producesFor: (params: Record<string, unknown>) => pickedFormats(e, params) }]),
  );
  return {
    kind: (type) => kinds.get(type),
    checkParams: (type, params) => catalogParams(byType.get(type)?.params, params),
  };
}
