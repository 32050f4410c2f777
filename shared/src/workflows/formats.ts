/**
 * Which formats flow along a workflow graph's edges, and where they do not fit: the one format
 * semantics that the server's validation (IO_MISMATCH) and the web editor's connection rules
 * share. Pure and synchronous; the only thing it cannot know by itself, what a sub-workflow's
 * exits give, it asks its caller for by yielding (the server resolves the workflow, the editor
 * answers "any format"). Problems come back as data; each caller words them for its readers.
 */
import { FORMATS } from "../formats";
import { SOURCE_TYPE } from "./kinds";
import type { Link } from "./order";

/** A set of format ids. */
export type Formats = ReadonlySet<string>;

/** Every known format: what a node that takes "any" file is judged with. */
export const ALL_FORMATS: Formats = new Set(FORMATS.map((f) => f.id));

/** The formats of `b` (in `b`'s order, which messages keep) that are also in `a`. */
export const intersect = (a: Formats, b: Iterable<string>): Set<string> => new Set([...b].filter((f) => a.has(f)));

/** A set of formats for a sentence: "pdf, png", "any format", "no files". */
export function describeFormats(formats: Formats): string {
  if (formats.size === 0) return "no files";
  if (formats.size === ALL_FORMATS.size) return "any format";
  const list = [...formats];
  return list.length > 8 ? `${list.slice(0, 8).join(", ")}, ...` : list.join(", ");
}

/** A node kind's own formats, as the catalog lists them. */
export interface KindIo {
  accepts: readonly string[] | "any";
  /** "inputs": the formats it was given (filters, merges, approvals, renames, triggers). */
  produces: readonly string[] | "inputs";
}

/** One node as the flow sees it. */
export interface FlowNode {
  id: string;
  type: string;
  /** Its kind's io; absent for a kind no one knows (what it gives is unknown, so edges from it are not judged). */
  io?: KindIo;
  /** The node's `data.io`: narrows its kind's lists (must be a subset of them). */
  narrow?: { accepts?: readonly string[]; produces?: readonly string[] };
  /** The formats its params pick among its outputs (a convert's target format, a filter's formats). */
  picked?: readonly string[];
  /** op.workflow: the workflow it runs; what it gives is what that workflow's exits give. */
  runs?: string;
}

/** What does not fit; `IO_OUTSIDE`: a `data.io` list names a format the kind does not take or give. */
export type FlowProblem =
  | { code: "IO_OUTSIDE"; node: FlowNode; side: "accepts" | "produces"; format: string; own: Formats }
  | { code: "IO_MISMATCH"; node: FlowNode; source: FlowNode; accepts: Formats; produces: Formats };

export type ReportProblem = (problem: FlowProblem) => void;

/**
 * `data.io` narrowing of one side: the node's own list intersected with it. A list naming a
 * format outside the kind's own set is reported and ignored, so the edges are judged on what
 * the kind does.
 */
export function narrowed(node: FlowNode, side: "accepts" | "produces", own: Formats, report?: ReportProblem): Formats {
  const wanted = node.narrow?.[side];
  if (!wanted) return own;
  const outside = wanted.filter((f) => !own.has(f));
  if (outside.length === 0) return intersect(own, wanted);
  report?.({ code: "IO_OUTSIDE", node, side, format: outside[0], own });
  return own;
}

/**
 * `data.io.produces` on a pass-through node narrows what it gives; since that depends on its
 * inputs, only formats that are not formats at all are reported (in node order).
 */
export function checkPassThroughIo(nodes: readonly FlowNode[], report: ReportProblem): void {
  for (const node of nodes) if (node.io?.produces === "inputs") narrowed(node, "produces", ALL_FORMATS, report);
}

/** A graph ready for the flow: its nodes, the links between two different existing nodes (each once), a topological order. */
export interface FlowGraph {
  nodes: readonly FlowNode[];
  links: readonly Link[];
  order: readonly string[];
}

export interface FlowOptions {
  /**
   * What a node without incoming edges is given: a set (nothing at the top of a run, the
   * op.workflow node's inputs in a sub-workflow), or per node, null for "not known yet" (an
   * editor's step not connected yet): what such a pass-through node gives is then not judged.
   */
  seed: Formats | ((node: FlowNode) => Formats | null);
  /** The graph is a sub-workflow, where source.upload passes on its inputs. */
  nested: boolean;
  report?: ReportProblem;
}

/** What the flow asks its caller: the formats workflow `workflowId`'s exits give for inputs `given`. */
export interface SubWorkflowAsk {
  workflowId: string;
  given: Formats;
}

/** The formats each node gives; `unsure`: nodes whose outputs are guessed, edges from them not judged. */
export interface FlowResult {
  formats: Map<string, Formats>;
  unsure: Set<string>;
}

/**
 * What a node accepts after `data.io` narrowing; null when it takes anything, or when its kind
 * is unknown (its inputs are not judged). It depends on the node alone, not on its edges.
 */
export function nodeAccepts(node: FlowNode, report?: ReportProblem): Formats | null {
  if (!node.io) return null;
  const own = node.io.accepts === "any" ? (node.narrow?.accepts ? ALL_FORMATS : null) : new Set<string>(node.io.accepts);
  return own && narrowed(node, "accepts", own, report);
}

/**
 * Flows formats through the graph in topological order and reports every edge whose target
 * accepts none of what its source gives (once per edge; a node whose inputs were refused is
 * judged further as if it got what it accepts, so one mistake is reported once). A generator:
 * it yields a SubWorkflowAsk for each op.workflow node and goes on with the formats sent back.
 */
export function* flowFormats(graph: FlowGraph, opts: FlowOptions): Generator<SubWorkflowAsk, FlowResult, Formats> {
  const formats = new Map<string, Formats>();
  const unsure = new Set<string>();
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const incoming = new Map<string, string[]>();
  for (const { source, target } of graph.links) incoming.set(target, [...(incoming.get(target) ?? []), source]);
  for (const id of graph.order) {
    const node = byId.get(id)!;
    const io = node.io;
    if (!io) {
      unsure.add(id);
      formats.set(id, ALL_FORMATS);
      continue;
    }
    const accepts = nodeAccepts(node, opts.report);
    const sources = incoming.get(id) ?? [];
    let given = new Set<string>();
    if (sources.length === 0) {
      const seed = typeof opts.seed === "function" ? opts.seed(node) : opts.seed;
      given = new Set(seed ?? ALL_FORMATS);
      if (seed === null && (io.produces === "inputs" || node.runs !== undefined)) unsure.add(id);
    }
    let mismatch = false;
    for (const source of sources) {
      const from = formats.get(source)!;
      const taken = accepts ? intersect(accepts, from) : new Set(from);
      if (accepts && taken.size === 0 && !unsure.has(source)) {
        mismatch = true;
        opts.report?.({ code: "IO_MISMATCH", node, source: byId.get(source)!, accepts, produces: from });
      }
      given = new Set([...given, ...taken]);
    }
    // A node whose inputs were refused is judged as if it got what it accepts, so one mistake
    // is reported once; what a pass-through node then gives is a guess, not judged further.
    if (mismatch) {
      given = new Set(accepts ?? ALL_FORMATS);
      if (io.produces === "inputs") unsure.add(id);
    }
    const passes = io.produces === "inputs" || (opts.nested && node.type === SOURCE_TYPE);
    let out: Formats;
    if (node.runs !== undefined) out = yield { workflowId: node.runs, given };
    else if (io.produces === "inputs" || passes) out = given;
    else out = new Set<string>(io.produces);
    if (node.picked) out = intersect(out, node.picked);
    // What a pass-through node gives depends on its inputs, so its io.produces can only keep some.
    const wanted = node.narrow?.produces;
    if (node.runs !== undefined || passes) formats.set(id, wanted ? intersect(out, wanted) : out);
    else formats.set(id, narrowed(node, "produces", out, opts.report));
  }
  return { formats, unsure };
}

/**
 * The flow run to its end without a database: every sub-workflow gives `subWorkflow(ask)`,
 * by default any format (so nothing after it is refused).
 */
export function flowFormatsSync(graph: FlowGraph, opts: FlowOptions, subWorkflow: (ask: SubWorkflowAsk) => Formats = () => ALL_FORMATS): FlowResult {
  const flow = flowFormats(graph, opts);
  let step = flow.next();
  while (!step.done) step = flow.next(subWorkflow(step.value));
  return step.value;
}

/** Whether a param's schema is a choice among literal values (`Type.Union` of literals, or `enum`). */
function isChoice(schema: unknown): boolean {
  const s = (schema ?? {}) as { anyOf?: { const?: unknown }[]; enum?: unknown[] };
  return Array.isArray(s.enum) || (Array.isArray(s.anyOf) && s.anyOf.length > 0 && s.anyOf.every((o) => typeof o === "object" && o !== null && "const" in o));
}

/**
 * The output formats a tool's params pick: the values of its choice params that are formats the
 * tool produces (cad.convert `format: "stl"`, gis.convert `to: "gpkg"`), or undefined when none
 * does. Free-text params are not read: a PDF title "pdf" says nothing about the output.
 */
export function chosenFormats(paramsSchema: unknown, produces: readonly string[], params: Record<string, unknown>): string[] | undefined {
  const properties = ((paramsSchema ?? {}) as { properties?: Record<string, unknown> }).properties ?? {};
  const known = new Set<string>(produces);
  const picked = Object.entries(properties)
    .filter(([key, schema]) => isChoice(schema) && typeof params[key] === "string" && known.has(params[key] as string))
    .map(([key]) => params[key] as string);
  return picked.length ? [...new Set(picked)] : undefined;
}

/**
 * What a node's params pick among its outputs, read from its catalog entry alone (for callers
 * without the server's node kinds, like the web editor): a tool's choice params naming a format
 * it produces, or a pass-through kind's `formats` list (logic.filter). The server's kinds say
 * it through producesFor; server/src/workflows/nodes/catalog-fixture.test.ts holds both to one answer.
 */
export function pickedFormats(entry: { io: KindIo; params: unknown }, params: Record<string, unknown>): readonly string[] | undefined {
  if (entry.io.produces !== "inputs") return chosenFormats(entry.params, entry.io.produces, params);
  const properties = ((entry.params ?? {}) as { properties?: Record<string, unknown> }).properties ?? {};
  const formats = params.formats;
  if (!("formats" in properties) || !Array.isArray(formats) || !formats.every((f) => typeof f === "string")) return undefined;
  return formats as string[];
}
