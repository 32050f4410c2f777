/**
 * Whether one step may lead into another, and if not, why, in words the person drawing the
 * edge reads on the canvas. The format rule is the server's own (shared/src/workflows/formats.ts,
 * the flow behind IO_MISMATCH), so an edge the editor accepts is not one validation refuses for
 * its formats. The rest are structural: a workflow is a DAG that starts at its triggers.
 */
import { SUB_WORKFLOW_TYPE } from "@vektor/shared/workflows/kinds";
import { describeFormats, flowFormatsSync, intersect, nodeAccepts, pickedFormats, type FlowNode, type FlowProblem, type FlowResult, type Formats } from "@vektor/shared/workflows/formats";
import { leadsTo, topoOrder, type Link } from "@vektor/shared/workflows/order";
import { effectiveParams, entryOf, titleOf } from "./catalog";
import type { CatalogEntry, EditorGraph, EditorNode, Outcome } from "./types";

/**
 * A step's name in a sentence: its catalog title, with its id when another step has the same
 * title (two "Compress PDF" steps must be told apart in "Connect to" and in reasons).
 */
export function stepLabel(node: EditorNode, g: EditorGraph, catalog: readonly CatalogEntry[]): string {
  const title = titleOf(node, catalog);
  const twin = g.nodes.some((n) => n.id !== node.id && titleOf(n, catalog) === title);
  return twin ? `${title} (${node.id})` : title;
}

/** A node as the shared format flow sees it: its kind's io, its data.io, what its params pick, the workflow it runs. */
function flowNode(node: EditorNode, catalog: readonly CatalogEntry[]): FlowNode {
  const entry = entryOf(catalog, node.type);
  if (!entry) return { id: node.id, type: node.type };
  const params = effectiveParams(node, entry);
  const picked = pickedFormats(entry, params);
  const runs = node.type === SUB_WORKFLOW_TYPE && typeof params.workflowId === "string" && params.workflowId ? params.workflowId : undefined;
  return { id: node.id, type: node.type, io: entry.io, narrow: node.data.io, ...(picked ? { picked } : {}), ...(runs ? { runs } : {}) };
}

/** The links the server would judge: between two different existing nodes, each once. */
function linksOf(g: EditorGraph): Link[] {
  const ids = new Set(g.nodes.map((n) => n.id));
  const seen = new Set<string>();
  return g.edges.filter((e) => {
    const key = `${e.source}\n${e.target}`;
    if (e.source === e.target || !ids.has(e.source) || !ids.has(e.target) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The formats each step gives, as the server's validation flows them, or null when the graph
 * loops (then formats are not judged, there as here). Unlike a run, a step not connected yet is
 * not taken to give nothing: what it gives is unknown until something leads into it, so an
 * edge drawn from it before its own input is not refused. Triggers really give nothing.
 */
export function flowOf(g: EditorGraph, catalog: readonly CatalogEntry[], report?: (problem: FlowProblem) => void): FlowResult | null {
  const links = linksOf(g);
  const order = topoOrder([...new Set(g.nodes.map((n) => n.id))], links);
  if (!order) return null;
  const nodes = g.nodes.map((n) => flowNode(n, catalog));
  const empty: Formats = new Set();
  const seed = (node: FlowNode) => (entryOf(catalog, node.type)?.category === "trigger" ? empty : null);
  // A sub-workflow's exits are not known here: any format, so nothing after it is refused.
  return flowFormatsSync({ nodes, links, order }, { seed, nested: false, report });
}

/** The last flow computed per graph value (graphs are never changed in place, so a value's flow stays true). */
const flows = new WeakMap<EditorGraph, { catalog: readonly CatalogEntry[]; flow: FlowResult | null }>();

function cachedFlow(g: EditorGraph, catalog: readonly CatalogEntry[]): FlowResult | null {
  const hit = flows.get(g);
  if (hit?.catalog === catalog) return hit.flow;
  const flow = flowOf(g, catalog);
  flows.set(g, { catalog, flow });
  return flow;
}

/**
 * The server's format rule for one new edge: the reason it would be an IO_MISMATCH, or null.
 * A new edge changes nothing upstream of its target (it makes no loop), so what the source gives
 * is read from the graph's flow without it: one flow per graph however many targets a drag tries.
 */
function formatProblem(g: EditorGraph, source: EditorNode, target: EditorNode, catalog: readonly CatalogEntry[]): string | null {
  const flow = cachedFlow(g, catalog);
  if (!flow || flow.unsure.has(source.id)) return null;
  const accepts = nodeAccepts(flowNode(target, catalog));
  const gives = flow.formats.get(source.id);
  if (!accepts || !gives || intersect(accepts, gives).size > 0) return null;
  return `${stepLabel(target, g, catalog)} accepts ${describeFormats(accepts)}, but ${stepLabel(source, g, catalog)} produces ${describeFormats(gives)}`;
}

/**
 * Whether an edge from `source` to `target` may be drawn, or the reason it may not: a step to
 * itself, an edge that exists, a trigger as a target (a trigger is where a run starts), a loop,
 * or formats the target does not accept. A sink may lead on (a sink's outputs are the run's
 * outputs whether or not something follows it, and rename → zip is a real use), as the server allows.
 */
export function canConnect(g: EditorGraph, source: string, target: string, catalog: readonly CatalogEntry[]): Outcome<object> {
  const from = g.nodes.find((n) => n.id === source);
  const to = g.nodes.find((n) => n.id === target);
  if (!from || !to) return { ok: false, reason: `There is no step "${from ? target : source}" in this workflow` };
  const name = (n: EditorNode) => stepLabel(n, g, catalog);
  if (source === target) return { ok: false, reason: `${name(from)} cannot lead into itself` };
  if (g.edges.some((e) => e.source === source && e.target === target)) return { ok: false, reason: `${name(from)} already leads into ${name(to)}` };
  if (entryOf(catalog, to.type)?.category === "trigger") return { ok: false, reason: `${name(to)} is where a run starts: no step can lead into it` };
  if (leadsTo(linksOf(g), target, source)) return { ok: false, reason: `Connecting ${name(from)} to ${name(to)} would make a loop: ${name(to)} already leads to ${name(from)}` };
  const formats = formatProblem(g, from, to, catalog);
  return formats ? { ok: false, reason: formats } : { ok: true };
}
