/**
 * graphJson -> Graph. Only the shape is checked here (JSON, arrays, node and edge fields, size);
 * what the graph means (ids, cycles, kinds, params, formats) is validate.ts's work.
 */
import { ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import { fail } from "@vektor/shared/errors";
import { jsonDepthExceeds, MAX_JSON_DEPTH, requireStorableText } from "@vektor/shared/json";
import { GraphEdge, GraphNode, MAX_GRAPH_EDGES, MAX_GRAPH_NODES, type Graph, type ValidationIssue } from "@vektor/shared/schemas/workflow";

/** The outcome of parsing: the graph, or the issues that stop it from being read at all. */
export type ParsedGraph = { ok: true; graph: Graph } | { ok: false; issues: ValidationIssue[] };

/** Issues past this many are summarised in one line (a broken export can have thousands). */
const MAX_SHAPE_ISSUES = 20;

const invalid = (message: string, nodeId?: string): ValidationIssue => ({ code: "INVALID_GRAPH", message, ...(nodeId ? { nodeId } : {}) });

/** The first thing wrong with `value`, said plainly (`data is missing`, `id must not contain "/"`). */
function firstError(schema: TSchema, value: unknown): string {
  const error = Value.Errors(schema, value).First();
  if (!error) return "is malformed";
  const field = error.path.slice(1).replaceAll("/", ".") || "the value";
  if (error.type === ValueErrorType.ObjectRequiredProperty) return `${field} is missing`;
  if (error.type === ValueErrorType.StringPattern && field === "id") return `id must not contain "/"`;
  return `${field}: ${error.message}`;
}

function shapeIssues(nodes: unknown[], edges: unknown[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  nodes.forEach((node, i) => {
    if (Value.Check(GraphNode, node)) return;
    const id = (node as { id?: unknown } | null)?.id;
    const name = typeof id === "string" && id ? `node "${id}"` : `nodes[${i}]`;
    issues.push(invalid(`${name}: ${firstError(GraphNode, node)}`, typeof id === "string" && id ? id : undefined));
  });
  edges.forEach((edge, i) => {
    if (!Value.Check(GraphEdge, edge)) issues.push(invalid(`edges[${i}]: ${firstError(GraphEdge, edge)}`));
  });
  if (issues.length <= MAX_SHAPE_ISSUES) return issues;
  return [...issues.slice(0, MAX_SHAPE_ISSUES), invalid(`... and ${issues.length - MAX_SHAPE_ISSUES} more malformed nodes or edges`)];
}

/**
 * Reads a workflow's `graphJson`: `{ nodes: GraphNode[], edges: GraphEdge[] }`. Not JSON, not an
 * object, missing arrays or malformed nodes/edges -> INVALID_GRAPH issues; more than 500 nodes
 * or 2000 edges -> TOO_MANY_NODES. Unknown fields on nodes and edges (xyflow's) are kept.
 */
export function parseGraph(graphJson: string): ParsedGraph {
  // Too deep to walk safely is refused outright (400), as the same nesting in a body is.
  if (jsonDepthExceeds(graphJson)) throw fail.validation(`graphJson may nest arrays and objects at most ${MAX_JSON_DEPTH} levels deep`);
  let value: unknown;
  try {
    value = JSON.parse(graphJson);
  } catch (e) {
    return { ok: false, issues: [invalid(`graphJson is not valid JSON: ${(e as Error).message}`)] };
  }
  requireStorableText(graphJson, value, "graphJson");
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, issues: [invalid("graphJson must hold an object { nodes, edges }")] };
  }
  const { nodes, edges } = value as { nodes?: unknown; edges?: unknown };
  if (!Array.isArray(nodes) || !Array.isArray(edges)) {
    return { ok: false, issues: [invalid("graphJson must have a `nodes` array and an `edges` array")] };
  }
  if (nodes.length > MAX_GRAPH_NODES || edges.length > MAX_GRAPH_EDGES) {
    const message = `The graph has ${nodes.length} nodes and ${edges.length} edges; at most ${MAX_GRAPH_NODES} nodes and ${MAX_GRAPH_EDGES} edges are allowed: split it into smaller workflows (an op.workflow node runs one inside another)`;
    return { ok: false, issues: [{ code: "TOO_MANY_NODES", message }] };
  }
  const issues = shapeIssues(nodes, edges);
  if (issues.length) return { ok: false, issues };
  return { ok: true, graph: value as Graph };
}

/** A dependency between two nodes: `target` runs after `source` and gets its outputs. */
export interface Link {
  source: string;
  target: string;
}

/**
 * The ids in an order where every link's source comes before its target (Kahn's algorithm;
 * ties keep the order of `ids`), or null when the links form a cycle.
 */
export function topoOrder(ids: readonly string[], links: readonly Link[]): string[] | null {
  const indegree = new Map(ids.map((id) => [id, 0]));
  const next = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const { source, target } of links) {
    next.get(source)!.push(target);
    indegree.set(target, indegree.get(target)! + 1);
  }
  const position = new Map(ids.map((id, i) => [id, i]));
  const ready = ids.filter((id) => indegree.get(id) === 0);
  const order: string[] = [];
  while (ready.length) {
    // Smallest original position first, so the order is stable and reads like the graph.
    ready.sort((a, b) => position.get(a)! - position.get(b)!);
    const id = ready.shift()!;
    order.push(id);
    for (const t of next.get(id)!) {
      indegree.set(t, indegree.get(t)! - 1);
      if (indegree.get(t) === 0) ready.push(t);
    }
  }
  return order.length === ids.length ? order : null;
}

/** The groups of ids that reach each other through `links` (Tarjan's strongly connected components of 2+ nodes). */
export function cycles(ids: readonly string[], links: readonly Link[]): string[][] {
  const next = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const { source, target } of links) next.get(source)!.push(target);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (id: string) => {
    index.set(id, index.size);
    low.set(id, index.get(id)!);
    stack.push(id);
    onStack.add(id);
    for (const t of next.get(id)!) {
      if (!index.has(t)) {
        visit(t);
        low.set(id, Math.min(low.get(id)!, low.get(t)!));
      } else if (onStack.has(t)) low.set(id, Math.min(low.get(id)!, index.get(t)!));
    }
    if (low.get(id) !== index.get(id)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== id);
    if (group.length > 1) groups.push(group);
  };
  for (const id of ids) if (!index.has(id)) visit(id);
  const position = new Map(ids.map((id, i) => [id, i]));
  return groups.map((g) => g.sort((a, b) => position.get(a)! - position.get(b)!));
}
