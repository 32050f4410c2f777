/**
 * graphJson -> Graph. Only the shape is checked here (JSON, arrays, node and edge fields, size);
 * what the graph means (ids, cycles, kinds, params, formats) is validate.ts's work.
 */
import { ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import { fail } from "@vektor/shared/errors";
import { readJson, requireStorableText, tooDeepMessage } from "@vektor/shared/json";
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
  const read = readJson(graphJson, "graphJson");
  // Too deep to walk safely is refused outright (400), as the same nesting in a body is.
  if (!read.ok && read.tooDeep) throw fail.validation(tooDeepMessage("graphJson"));
  if (!read.ok) return { ok: false, issues: [invalid(read.message)] };
  requireStorableText(graphJson, read.value, "graphJson");
  const value = read.value;
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

// The order of a graph is shared with the web editor (and a future in-browser runner).
export { cycles, topoOrder, type Link } from "@vektor/shared/workflows/order";
