/** graphJson builders for the workflow tests: nodes as [id, type, params], edges as [source, target]. */
export type NodeSpec = [id: string, type: string, params?: Record<string, unknown>];

/** A graphJson from [id, type, params] nodes and [source, target] edges. */
export function graph(nodes: NodeSpec[], edges: [string, string][]): string {
  return JSON.stringify({
    nodes: nodes.map(([id, type, params]) => ({ id, type, data: { type, ...(params ? { params } : {}) } })),
    edges: edges.map(([source, target]) => ({ source, target })),
  });
}

/** A straight line of nodes, each feeding the next. */
export const linear = (...nodes: NodeSpec[]) => graph(nodes, nodes.slice(1).map((n, i) => [nodes[i][0], n[0]]));
