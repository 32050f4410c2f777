/**
 * Looking node kinds up in the catalog: by type (indexed once per catalog array, since the
 * canvas asks on every hover), and the params a new step starts with (its schema's defaults).
 */
import type { CatalogEntry, EditorNode } from "./types";

const indexes = new WeakMap<readonly CatalogEntry[], Map<string, CatalogEntry>>();

/** The catalog entry of a node type, or undefined for a type the catalog does not list. */
export function entryOf(catalog: readonly CatalogEntry[], type: string): CatalogEntry | undefined {
  let index = indexes.get(catalog);
  if (!index) {
    index = new Map(catalog.map((e) => [e.type, e]));
    indexes.set(catalog, index);
  }
  return index.get(type);
}

/**
 * The defaults a params schema declares for its own properties (as TypeBox's Value.Default
 * fills them on the server: an optional object without a default of its own stays absent).
 * Params without a default are left out; the server reports a missing required one.
 */
export function defaultParams(schema: unknown): Record<string, unknown> {
  const properties = (schema as { properties?: Record<string, { default?: unknown }> } | undefined)?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(properties)) if (prop.default !== undefined) out[key] = structuredClone(prop.default);
  return out;
}

/** A node's params with the schema's defaults under them: what the server would run it with. */
export function effectiveParams(node: EditorNode, entry: CatalogEntry | undefined): Record<string, unknown> {
  const properties = (entry?.params as { properties?: Record<string, { default?: unknown }> } | undefined)?.properties ?? {};
  const params = node.data.params ?? {};
  // Read-only use: defaults are shared, not cloned (defaultParams clones them for a new step).
  const defaults = Object.entries(properties).filter(([key, prop]) => prop.default !== undefined && params[key] === undefined);
  return defaults.length ? { ...Object.fromEntries(defaults.map(([key, prop]) => [key, prop.default])), ...params } : params;
}

/** The name a person reads for a node: its kind's catalog title, or its type when the catalog does not know it. */
export function titleOf(node: Pick<EditorNode, "type">, catalog: readonly CatalogEntry[]): string {
  return entryOf(catalog, node.type)?.title ?? node.type;
}
