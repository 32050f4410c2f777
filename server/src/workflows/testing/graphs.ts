/** Test helpers: graphs from short rows, and a resolver over a map of workflows. */
import type { Graph } from "@vektor/shared/schemas/workflow";
import type { ResolveWorkflow } from "../validate";

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
