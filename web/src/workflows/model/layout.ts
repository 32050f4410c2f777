/**
 * Where steps sit on the canvas. `tidy` lays the whole graph out left to right with dagre (the
 * editor's Tidy button); `placeMissing` only gives a place to steps that have none (a template,
 * a step added by the outline, a paste), next to what leads into them, and never moves a step
 * someone placed: auto-layout that keeps manual placement.
 */
import dagre from "@dagrejs/dagre";
import { topoOrder } from "@vektor/shared/workflows/order";
import type { LooseGraph, LooseNode } from "./shape";
import type { EditorGraph, EditorNode, XY } from "./types";

/** The box a step takes on the canvas (the node component draws it this size). */
export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 72;
/** Space between columns (a step and what it leads to) and between steps in a column. */
export const GAP_X = 80;
export const GAP_Y = 40;

/** The whole graph laid out left to right; every step gets a new position, nothing else changes. */
export function tidy(g: EditorGraph | LooseGraph): EditorGraph {
  const layout = new dagre.graphlib.Graph();
  layout.setGraph({ rankdir: "LR", nodesep: GAP_Y, ranksep: GAP_X, marginx: 0, marginy: 0 });
  layout.setDefaultEdgeLabel(() => ({}));
  for (const node of g.nodes) layout.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  const ids = new Set(g.nodes.map((n) => n.id));
  for (const edge of g.edges) if (ids.has(edge.source) && ids.has(edge.target) && edge.source !== edge.target) layout.setEdge(edge.source, edge.target);
  dagre.layout(layout);
  // dagre gives centres; the canvas places nodes by their top-left corner.
  const nodes = g.nodes.map((node) => {
    const { x, y } = layout.node(node.id);
    return { ...node, position: { x: Math.round(x - NODE_WIDTH / 2), y: Math.round(y - NODE_HEIGHT / 2) } };
  });
  return { ...g, nodes };
}

const overlaps = (a: XY, b: XY) => Math.abs(a.x - b.x) < NODE_WIDTH + GAP_X / 2 && Math.abs(a.y - b.y) < NODE_HEIGHT + GAP_Y / 2;

/** The first free spot at `start` or below it. */
function freeSpot(start: XY, placed: readonly XY[]): XY {
  const spot = { ...start };
  while (placed.some((p) => overlaps(p, spot))) spot.y += NODE_HEIGHT + GAP_Y;
  return spot;
}

/** Where a step without a place goes: right of the steps that lead into it, else below everything. */
function spotFor(id: string, predecessors: readonly string[], at: ReadonlyMap<string, XY>): XY {
  const from = predecessors.map((p) => at.get(p)).filter((p): p is XY => p !== undefined);
  if (from.length) return { x: Math.max(...from.map((p) => p.x)) + NODE_WIDTH + GAP_X, y: Math.min(...from.map((p) => p.y)) };
  const all = [...at.values()];
  if (all.length === 0) return { x: 0, y: 0 };
  return { x: Math.min(...all.map((p) => p.x)), y: Math.max(...all.map((p) => p.y)) + NODE_HEIGHT + GAP_Y };
}

/** Gives a position to each step that has none, keeping every existing one. */
export function placeMissing(g: EditorGraph | LooseGraph): EditorGraph {
  const missing = g.nodes.filter((n: LooseNode) => !n.position);
  if (missing.length === 0) return g as EditorGraph;
  const at = new Map<string, XY>();
  for (const node of g.nodes as LooseNode[]) if (node.position) at.set(node.id, node.position);
  const ids = g.nodes.map((n) => n.id);
  const known = new Set(ids);
  // Predecessors first, so a chain of new steps runs left to right (input order when it loops).
  const order = topoOrder(ids, g.edges.filter((e) => e.source !== e.target && known.has(e.source) && known.has(e.target))) ?? ids;
  const lacking = new Set(missing.map((n) => n.id));
  for (const id of order) {
    if (!lacking.has(id) || at.has(id)) continue;
    const predecessors = g.edges.filter((e) => e.target === id).map((e) => e.source);
    at.set(id, freeSpot(spotFor(id, predecessors, at), [...at.values()]));
  }
  const nodes: EditorNode[] = (g.nodes as LooseNode[]).map((n) => (n.position ? (n as EditorNode) : { ...n, position: at.get(n.id)! }));
  return { ...g, nodes };
}

/** Positions for a graph just read: a graph with none at all (a template) is laid out whole, otherwise only the steps without one are placed. */
export function positioned(g: EditorGraph | LooseGraph): EditorGraph {
  return g.nodes.length > 0 && g.nodes.every((n: LooseNode) => !n.position) ? tidy(g) : placeMissing(g);
}
