/**
 * Copy and paste of steps, export and import of a whole graph, all as workflow JSON (the
 * server's graphJson shape), so what is copied here pastes into another workflow, a file or
 * the API. A paste is one edit: its ids are made unique and its edges follow them.
 */
import { toJsonValue, uniqueId } from "./graph";
import { placeMissing, positioned } from "./layout";
import { edgeId, MAX_EDGES, MAX_NODES, readGraphText, type LooseNode } from "./shape";
import type { EditorEdge, EditorGraph, Outcome, XY } from "./types";

/** Workflow JSON of these nodes and the edges between them. */
export function copyNodes(g: EditorGraph, ids: readonly string[]): string {
  const picked = new Set(ids);
  const nodes = g.nodes.filter((n) => picked.has(n.id));
  const edges = g.edges.filter((e) => picked.has(e.source) && picked.has(e.target));
  return JSON.stringify(toJsonValue({ nodes, edges }));
}

/** Whether `g` can take this many more steps and connections (the server's limits). */
function roomFor(g: EditorGraph, nodes: number, edges: number): string | null {
  if (g.nodes.length + nodes <= MAX_NODES && g.edges.length + edges <= MAX_EDGES) return null;
  return `Pasting ${nodes} steps and ${edges} connections would pass the limit of ${MAX_NODES} steps and ${MAX_EDGES} connections`;
}

/** Pasted nodes with ids not taken in `g` (kept when free), moved by `offset`; the old id → new id map. */
function remapNodes(g: EditorGraph, nodes: readonly LooseNode[], offset: XY): { nodes: LooseNode[]; ids: Map<string, string> } {
  const taken = new Set(g.nodes.map((n) => n.id));
  const ids = new Map<string, string>();
  const out = nodes.map((node) => {
    const id = taken.has(node.id) ? uniqueId(node.id, taken) : node.id;
    taken.add(id);
    if (!ids.has(node.id)) ids.set(node.id, id);
    const moved: LooseNode = { ...node, id };
    return node.position ? { ...moved, position: { x: node.position.x + offset.x, y: node.position.y + offset.y } } : moved;
  });
  return { nodes: out, ids };
}

/** The pasted edges between pasted nodes, on their new ids, each pair once, with fresh ids. */
function remapEdges(g: EditorGraph, edges: readonly EditorEdge[], ids: ReadonlyMap<string, string>): EditorEdge[] {
  const taken = new Set(g.edges.map((e) => e.id));
  const pairs = new Set<string>();
  const out: EditorEdge[] = [];
  for (const edge of edges) {
    const source = ids.get(edge.source);
    const target = ids.get(edge.target);
    if (!source || !target || pairs.has(`${source}\n${target}`)) continue;
    pairs.add(`${source}\n${target}`);
    const id = edgeId(source, target, taken);
    taken.add(id);
    out.push({ ...edge, id, source, target });
  }
  return out;
}

/**
 * Adds the steps in `text` (workflow JSON, from copyNodes or anywhere) to `g`: ids made unique,
 * positions moved by `offset` (steps without one are placed), edges to steps not pasted left
 * out. Text that is not such JSON, or a paste past the limits, is refused with the reason.
 */
export function pasteNodes(g: EditorGraph, text: string, offset: XY = { x: 40, y: 40 }): Outcome<{ graph: EditorGraph; ids: string[] }> {
  const read = readGraphText(text, "The pasted text");
  if (!read.ok) return read;
  if (read.graph.nodes.length === 0) return { ok: false, reason: "The pasted text has no steps" };
  const remapped = remapNodes(g, read.graph.nodes, offset);
  const edges = remapEdges(g, read.graph.edges, remapped.ids);
  const full = roomFor(g, remapped.nodes.length, edges.length);
  if (full) return { ok: false, reason: full };
  const graph = placeMissing({ ...g, nodes: [...g.nodes, ...remapped.nodes], edges: [...g.edges, ...edges] });
  return { ok: true, graph, ids: remapped.nodes.map((n) => n.id) };
}

/** The whole graph as a workflow JSON file's text (readable: indented). */
export function exportGraph(g: EditorGraph): string {
  return `${JSON.stringify(toJsonValue(g), null, 2)}\n`;
}

/** A whole graph from an exported file, its shape and size checked; steps without a position are placed. */
export function importGraph(text: string): Outcome<{ graph: EditorGraph }> {
  const read = readGraphText(text, "The file");
  return read.ok ? { ok: true, graph: positioned(read.graph) } : read;
}
