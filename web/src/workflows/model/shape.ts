/**
 * Reading a graph from text someone hands the editor (the server's graphJson, a paste, an
 * import): the shape the server's parser insists on (shared/src/schemas/workflow.ts GraphNode,
 * GraphEdge and its limits), checked here by hand so the editor's chunk carries no TypeBox, and
 * said in plain words. What the graph means (kinds, params, formats) is the server's validation's.
 */
import { readJson } from "@vektor/shared/json";
import type { EditorEdge, EditorNode, Outcome, XY } from "./types";

/** The server's limits (shared/src/schemas/workflow.ts; shape.test.ts holds them equal). */
export const MAX_NODES = 500;
export const MAX_EDGES = 2000;
export const MAX_GRAPH_JSON = 1_000_000;
const MAX_ID = 100;

/** A node as read: it may not have a position yet (placeMissing gives it one). */
export type LooseNode = Omit<EditorNode, "position"> & { position?: XY };
export interface LooseGraph {
  nodes: LooseNode[];
  edges: EditorEdge[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isPoint = (v: unknown): v is XY => isObject(v) && Number.isFinite(v.x) && Number.isFinite(v.y);
const isStringList = (v: unknown) => Array.isArray(v) && v.length <= 100 && v.every((f) => typeof f === "string" && f.length <= 50);

/** What is wrong with a node's id or type, or null. */
function nameProblem(field: string, value: unknown): string | null {
  if (value === undefined) return `${field} is missing`;
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_ID) return `${field} must be a text of 1 to ${MAX_ID} characters`;
  if (field === "id" && value.includes("/")) return `id must not contain "/"`;
  return null;
}

function nodeProblem(node: unknown): string | null {
  if (!isObject(node)) return "is not an object";
  const named = nameProblem("id", node.id) ?? nameProblem("type", node.type);
  if (named) return named;
  const data = node.data;
  if (data === undefined) return "data is missing";
  if (!isObject(data)) return "data must be an object";
  if (data.type !== undefined && (typeof data.type !== "string" || data.type.length > MAX_ID)) return "data.type must be a text";
  if (data.params !== undefined && !isObject(data.params)) return "data.params must be an object";
  if (data.io === undefined) return null;
  if (!isObject(data.io)) return "data.io must be an object";
  if (data.io.accepts !== undefined && !isStringList(data.io.accepts)) return "data.io.accepts must be a list of format ids";
  if (data.io.produces !== undefined && !isStringList(data.io.produces)) return "data.io.produces must be a list of format ids";
  return null;
}

function edgeProblem(edge: unknown): string | null {
  if (!isObject(edge)) return "is not an object";
  for (const field of ["source", "target"] as const) {
    const v = edge[field];
    if (v === undefined) return `${field} is missing`;
    if (typeof v !== "string" || v.length === 0 || v.length > MAX_ID) return `${field} must be a text of 1 to ${MAX_ID} characters`;
  }
  if (edge.id !== undefined && (typeof edge.id !== "string" || edge.id.length > 200)) return "id must be a text of at most 200 characters";
  return null;
}

/** An edge id that reads as what it is and is not taken yet. */
export function edgeId(source: string, target: string, taken: ReadonlySet<string>): string {
  const base = `${source}->${target}`;
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}#${n}`)) n++;
  return `${base}#${n}`;
}

/** Every edge with an id of its own (the server's edges may have none; xyflow needs one, unique). */
function withEdgeIds(edges: Json[]): EditorEdge[] {
  const taken = new Set<string>();
  return edges.map((edge) => {
    const id = typeof edge.id === "string" && edge.id && !taken.has(edge.id) ? edge.id : edgeId(edge.source as string, edge.target as string, taken);
    taken.add(id);
    return { ...edge, id } as EditorEdge;
  });
}

/** A node as the model keeps it: data.type set, a malformed position dropped (it gets a new one). */
function looseNode(node: Json): LooseNode {
  const data = node.data as Json;
  const { position, ...rest } = node;
  const out = { ...rest, data: { ...data, type: (data.type as string | undefined) ?? (node.type as string) } } as LooseNode;
  return isPoint(position) ? { ...out, position: { ...position } } : out;
}

/** A parsed value as a graph, or the first thing wrong with it. */
export function readGraphValue(value: unknown): Outcome<{ graph: LooseGraph }> {
  if (!isObject(value)) return { ok: false, reason: "A workflow graph is an object { nodes, edges }" };
  const { nodes, edges } = value;
  if (!Array.isArray(nodes) || !Array.isArray(edges)) return { ok: false, reason: "A workflow graph needs a `nodes` list and an `edges` list" };
  if (nodes.length > MAX_NODES || edges.length > MAX_EDGES) {
    return { ok: false, reason: `The graph has ${nodes.length} steps and ${edges.length} connections; at most ${MAX_NODES} steps and ${MAX_EDGES} connections are allowed` };
  }
  for (const [i, node] of nodes.entries()) {
    const problem = nodeProblem(node);
    const id = isObject(node) && typeof node.id === "string" && node.id ? `node "${node.id}"` : `nodes[${i}]`;
    if (problem) return { ok: false, reason: `${id}: ${problem}` };
  }
  for (const [i, edge] of edges.entries()) {
    const problem = edgeProblem(edge);
    if (problem) return { ok: false, reason: `edges[${i}]: ${problem}` };
  }
  return { ok: true, graph: { ...value, nodes: (nodes as Json[]).map(looseNode), edges: withEdgeIds(edges as Json[]) } };
}

/** Text (graphJson, a paste, a file) as a graph, or why not; `what` names it in the reason. */
export function readGraphText(text: string, what: string): Outcome<{ graph: LooseGraph }> {
  if (text.length > MAX_GRAPH_JSON) return { ok: false, reason: `${what} is longer than ${MAX_GRAPH_JSON.toLocaleString("en")} characters` };
  const read = readJson(text, what);
  if (!read.ok) return { ok: false, reason: read.message };
  return readGraphValue(read.value);
}
