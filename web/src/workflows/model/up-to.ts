/**
 * "Try up to here": the part of a graph a step needs, the step and every step with a path to it,
 * with the edges among them. Run alone, it ends at that step, so the run's outputs are the
 * step's own (the shared planning takes the steps nothing follows as a run's outputs when no
 * sink is left). A plain function over the saved shape (graphJson's), no React.
 */
import type { Graph } from "@vektor/shared/schemas/workflow";

export function graphUpTo(graph: Graph, nodeId: string): Graph {
  const feeders = new Map<string, string[]>();
  for (const e of graph.edges) feeders.set(e.target, [...(feeders.get(e.target) ?? []), e.source]);
  const kept = new Set<string>();
  const todo = graph.nodes.some((n) => n.id === nodeId) ? [nodeId] : [];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (kept.has(id)) continue;
    kept.add(id);
    todo.push(...(feeders.get(id) ?? []));
  }
  return { nodes: graph.nodes.filter((n) => kept.has(n.id)), edges: graph.edges.filter((e) => kept.has(e.source) && kept.has(e.target)) };
}
