/** Test helpers for the graph semantics: graphs from short rows, a resolver over a map, a small catalog. */
import type { CatalogNode, Graph } from "../schemas/workflow";
import { catalogKinds } from "./catalog-kinds";
import type { ResolveWorkflow } from "./plan";

/** A node row: id, type, params (optional). */
export type NodeRow = [id: string, type: string, params?: Record<string, unknown>];

/** A graph from node rows and `[source, target]` edges. */
export function graphOf(nodes: NodeRow[], edges: [string, string][] = []): Graph {
  return {
    nodes: nodes.map(([id, type, params]) => ({ id, type, data: { type, ...(params ? { params } : {}) } })),
    edges: edges.map(([source, target]) => ({ source, target })),
  };
}

/** A chain of nodes, each connected to the next. */
export function chainOf(...nodes: NodeRow[]): Graph {
  return graphOf(nodes, nodes.slice(1).map((n, i) => [nodes[i][0], n[0]]));
}

/** A resolver over `workflows` (id -> graph); records every id asked for. */
export function resolverOf(workflows: Record<string, Graph>): ResolveWorkflow & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (id: string) => {
    asked.push(id);
    return workflows[id] ?? null;
  };
  return Object.assign(resolve, { asked });
}

const object = (properties: Record<string, unknown> = {}) => ({ type: "object", additionalProperties: false, properties });
const entry = (type: string, io: CatalogNode["io"], params = object(), chargedSteps = 0): CatalogNode => ({
  type,
  category: type.split(".")[0] as CatalogNode["category"],
  title: type,
  description: type,
  params,
  io,
  chargedSteps,
});
const pass = { accepts: "any", produces: "inputs" } as const;

/** A few kinds as a catalog lists them (the real ones have the same shape; see the server's catalog). */
export const SMALL_CATALOG: CatalogNode[] = [
  entry("trigger.manual", pass),
  entry("source.upload", { accepts: "any", produces: ["pdf", "png", "zip", "dxf"] }, object({ sinceLastRun: { type: "boolean", default: false } })),
  entry("op.pdf.compress", { accepts: ["pdf"], produces: ["pdf"], minInputs: 1, maxInputs: 1 }, object({ level: { type: "integer", default: 6 } }), 1),
  entry("op.pdf.merge", { accepts: ["pdf"], produces: ["pdf"], minInputs: 2, maxInputs: 100 }, object(), 1),
  entry("op.workflow", pass, object({ workflowId: { type: "string" } })),
  entry("logic.filter", pass, object({ formats: { type: "array" }, glob: { type: "string" } })),
  entry("logic.merge", pass),
  entry("sink.download", pass),
  entry("sink.zip", { accepts: "any", produces: ["zip"] }, object({ name: { type: "string", default: "outputs.zip" } })),
];

export const SMALL_KINDS = catalogKinds(SMALL_CATALOG);
