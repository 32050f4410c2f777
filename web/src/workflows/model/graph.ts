/**
 * The editor's graph edits: pure functions from a graph to the next one, never changing their
 * input (the undo stack keeps the old values). Reading the server's graphJson and writing it
 * back are here too; what the server stores is the same JSON with positions on the nodes.
 */
import { defaultParams } from "./catalog";
import { placeMissing, positioned } from "./layout";
import { canConnect } from "./rules";
import { edgeId, readGraphText } from "./shape";
import type { CatalogEntry, EditorEdge, EditorGraph, EditorNode, Outcome, XY } from "./types";

export { titleOf } from "./catalog";

/**
 * A workflow's graphJson as an editor graph, or why it is not one. Every node comes out with a
 * position: kept when stored, else given one (placeMissing; a graph with none at all, like a
 * template, is laid out whole by tidy).
 */
export function tryParseGraphJson(graphJson: string): Outcome<{ graph: EditorGraph }> {
  const read = readGraphText(graphJson, "graphJson");
  return read.ok ? { ok: true, graph: positioned(read.graph) } : read;
}

/** tryParseGraphJson for graphs the server stored (it stores none that is not a graph): throws with the reason otherwise. */
export function parseGraphJson(graphJson: string): EditorGraph {
  const parsed = tryParseGraphJson(graphJson);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.graph;
}

/** View state xyflow may leave on nodes and edges; saving it would make a click a new version. */
const VIEW_STATE = ["selected", "dragging", "measured", "resizing"];

const withoutViewState = <T extends object>(item: T): T => Object.fromEntries(Object.entries(item).filter(([key]) => !VIEW_STATE.includes(key))) as T;

/** The graph as a plain value for JSON: view state dropped, every other field kept. */
export const toJsonValue = (g: EditorGraph): EditorGraph => ({ ...g, nodes: g.nodes.map(withoutViewState), edges: g.edges.map(withoutViewState) });

/** The graph as graphJson for the server: positions on the nodes, fields it does not know kept. */
export function toGraphJson(g: EditorGraph): string {
  return JSON.stringify(toJsonValue(g));
}

/** An id like `compress`, `compress-2`: the last part of a node type, made unique among `taken`. */
export function uniqueId(base: string, taken: ReadonlySet<string>): string {
  const clean = base.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 90) || "step";
  if (!taken.has(clean)) return clean;
  const stem = clean.replace(/-\d+$/, "");
  let n = 2;
  while (taken.has(`${stem}-${n}`)) n++;
  return `${stem}-${n}`;
}

/** The id a new node of `type` gets: the type's last part (`op.pdf.compress` → `compress`), unique in `g`. */
export const idForType = (g: EditorGraph, type: string): string => uniqueId(type.split(".").pop() ?? type, new Set(g.nodes.map((n) => n.id)));

/**
 * A new step of a catalog kind, its params filled with the schema's defaults; without a
 * position it goes where placeMissing puts a step with no edges (below the others).
 */
export function addNode(g: EditorGraph, entry: CatalogEntry, position?: XY): { graph: EditorGraph; id: string } {
  const id = idForType(g, entry.type);
  const node = { id, type: entry.type, data: { type: entry.type, params: defaultParams(entry.params) } };
  if (position) return { graph: { ...g, nodes: [...g.nodes, { ...node, position: { ...position } }] }, id };
  return { graph: placeMissing({ ...g, nodes: [...g.nodes, node] }), id };
}

/** Removes these nodes and every edge that touches them (one undo step however many). */
export function removeNodes(g: EditorGraph, ids: readonly string[]): EditorGraph {
  const gone = new Set(ids);
  if (!g.nodes.some((n) => gone.has(n.id))) return g;
  return { ...g, nodes: g.nodes.filter((n) => !gone.has(n.id)), edges: g.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target)) };
}

/** Replaces a node's params (the settings form gives them whole). */
export function setParams(g: EditorGraph, id: string, params: Record<string, unknown>): EditorGraph {
  if (!g.nodes.some((n) => n.id === id)) return g;
  return { ...g, nodes: g.nodes.map((n) => (n.id === id ? { ...n, data: { ...n.data, params: { ...params } } } : n)) };
}

/** Moves the nodes named in `positions`; the others keep theirs. */
export function moveNodes(g: EditorGraph, positions: Readonly<Record<string, XY>>): EditorGraph {
  const moved = (n: EditorNode) => {
    const to = Object.hasOwn(positions, n.id) ? positions[n.id] : undefined;
    return to && (to.x !== n.position.x || to.y !== n.position.y) ? { ...n, position: { x: to.x, y: to.y } } : n;
  };
  const nodes = g.nodes.map(moved);
  return nodes.every((n, i) => n === g.nodes[i]) ? g : { ...g, nodes };
}

/** Adds the edge `source` → `target` when canConnect allows it; otherwise says why not. */
export function connect(g: EditorGraph, source: string, target: string, catalog: readonly CatalogEntry[]): Outcome<{ graph: EditorGraph }> {
  const allowed = canConnect(g, source, target, catalog);
  if (!allowed.ok) return allowed;
  const edge: EditorEdge = { id: edgeId(source, target, new Set(g.edges.map((e) => e.id))), source, target };
  return { ok: true, graph: { ...g, edges: [...g.edges, edge] } };
}

/** Removes one edge by its id. */
export function disconnect(g: EditorGraph, id: string): EditorGraph {
  return g.edges.some((e) => e.id === id) ? { ...g, edges: g.edges.filter((e) => e.id !== id) } : g;
}
