/**
 * Test helpers: the real node catalog (catalog.json, written from the server's node registry by
 * scripts/catalog-fixture.ts and checked by a server test) and a short way to write graphs.
 */
import type { CatalogEntry, EditorGraph, EditorNode } from "../types";
import raw from "./catalog.json";

export const CATALOG = raw as unknown as CatalogEntry[];

/** The catalog entry of `type`; a test naming a type the catalog lost fails here, loudly. */
export function entry(type: string): CatalogEntry {
  const found = CATALOG.find((e) => e.type === type);
  if (!found) throw new Error(`no catalog entry ${type}`);
  return found;
}

type NodeSpec = [id: string, type: string, params?: Record<string, unknown>];

/**
 * A graph from `[id, type, params?]` nodes (laid out on a diagonal) and `"a>b"` edges. Nodes
 * take `data.io` from `io` when given.
 */
export function graph(nodes: NodeSpec[], edges: string[] = [], io: Record<string, EditorNode["data"]["io"]> = {}): EditorGraph {
  return {
    nodes: nodes.map(([id, type, params], i) => ({ id, type, position: { x: i * 300, y: i * 100 }, data: { type, ...(params ? { params } : {}), ...(io[id] ? { io: io[id] } : {}) } })),
    edges: edges.map((e) => {
      const [source, target] = e.split(">");
      return { id: `${source}->${target}`, source, target };
    }),
  };
}

/** `value` frozen all the way down, so an edit that changes its input throws in the test. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
