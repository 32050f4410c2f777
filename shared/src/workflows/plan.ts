/**
 * A graph -> the flat plan a run executes, and which of its steps is ready: the one scheduling
 * semantics of the server's engine and the browser runner. Each op.workflow node's sub-workflow
 * is inlined (its steps named `<op node id>/<child id>`), so an executor schedules one graph of
 * steps and knows nothing about nesting: the child's entry steps wait for the op node's
 * predecessors, and the op node waits for the child's exit steps and collects their outputs.
 */
import { ServiceError } from "../errors";
import type { Graph } from "../schemas/workflow";
import { isPassedStep, type StepStatus } from "../schemas/vocab";
import { SUB_WORKFLOW_TYPE } from "./kinds";
import { topoOrder, type Link } from "./order";
import type { KindLookup } from "./registry";

/**
 * Sub-workflows may nest this many levels below the workflow being run: root -> A -> B -> C is
 * allowed; an op.workflow node inside C is too deep.
 */
export const MAX_NESTING_DEPTH = 3;

/** Finds one of the caller's workflows' graphs: null when it does not exist, is someone else's, or does not parse. */
export type ResolveWorkflow = (workflowId: string) => Promise<Graph | null>;

/** One step of a plan. */
export interface PlanNode {
  /** The node's id; inside a sub-workflow `<op.workflow step id>/<child id>`. */
  id: string;
  type: string;
  /** Checked against the kind's schema, defaults applied. */
  params: Record<string, unknown>;
  /** The op.workflow step this one was inlined under, or null at the top. */
  parentId: string | null;
  /** Inlined from a sub-workflow (a nested source.upload gives its inputs, not the run's files). */
  nested: boolean;
}

/** The flat plan of a run: nodes in an order where every edge's source comes first. */
export interface RunPlan {
  nodes: PlanNode[];
  edges: Link[];
}

const invalid = (message: string) => new ServiceError("VALIDATION_ERROR", message);

/** The workflows being expanded above a level (`ids`, the root's own id first when known) and its depth (0 = root). */
interface Chain {
  ids: readonly string[];
  depth: number;
}

interface Expansion {
  kinds: KindLookup;
  resolve: ResolveWorkflow;
}

/** The plan of one graph level, with its sub-workflows already inlined. */
async function expandLevel(graph: Graph, x: Expansion, prefix: string, parentId: string | null, chain: Chain): Promise<RunPlan> {
  const nodes: PlanNode[] = [];
  const edges: Link[] = [];
  const full = (id: string) => `${prefix}${id}`;
  const ids = new Set(graph.nodes.map((n) => n.id));
  if (ids.size !== graph.nodes.length) throw invalid(`Node ids must be unique${parentId ? ` (in the sub-workflow of step "${parentId}")` : ""}`);
  // Where an edge into an op.workflow node really goes: the entries of its sub-plan.
  const entriesOf = new Map<string, string[]>();
  for (const node of graph.nodes) {
    if (!x.kinds.kind(node.type)) throw invalid(`Node "${full(node.id)}" has the unknown type "${node.type}"`);
    const checked = x.kinds.checkParams(node.type, node.data.params);
    if (!checked.ok) throw invalid(`Node "${full(node.id)}" (${node.type}): ${checked.message}`);
    nodes.push({ id: full(node.id), type: node.type, params: checked.params, parentId, nested: parentId !== null });
    if (node.type !== SUB_WORKFLOW_TYPE) continue;
    const sub = await inline(full(node.id), checked.params.workflowId as string, x, chain);
    nodes.push(...sub.nodes);
    edges.push(...sub.edges);
    const hasIncoming = new Set(sub.edges.map((e) => e.target));
    const hasOutgoing = new Set(sub.edges.map((e) => e.source));
    entriesOf.set(node.id, sub.nodes.filter((n) => !hasIncoming.has(n.id)).map((n) => n.id));
    for (const exit of sub.nodes.filter((n) => !hasOutgoing.has(n.id))) edges.push({ source: exit.id, target: full(node.id) });
  }
  for (const { source, target } of graph.edges) {
    if (!ids.has(source) || !ids.has(target)) throw invalid(`An edge connects a node that does not exist ("${full(source)}" -> "${full(target)}")`);
    for (const to of entriesOf.get(target) ?? [full(target)]) edges.push({ source: full(source), target: to });
  }
  return { nodes, edges };
}

/** The sub-plan of op.workflow step `opId`, running workflow `workflowId`. */
async function inline(opId: string, workflowId: string, x: Expansion, chain: Chain): Promise<RunPlan> {
  if (chain.ids.includes(workflowId)) throw invalid(`Step "${opId}" runs workflow "${workflowId}", which is already running in it: workflows must not run themselves`);
  if (chain.depth + 1 > MAX_NESTING_DEPTH) {
    throw new ServiceError("LIMIT_EXCEEDED", `Step "${opId}" nests sub-workflows more than ${MAX_NESTING_DEPTH} levels deep`);
  }
  const graph = await x.resolve(workflowId);
  if (!graph) throw invalid(`Step "${opId}" runs workflow "${workflowId}", which does not exist or is not yours`);
  return expandLevel(graph, x, `${opId}/`, opId, { ids: [...chain.ids, workflowId], depth: chain.depth + 1 });
}

/** `plan` with its nodes in topological order; a loop cannot run and is refused. */
function ordered(plan: RunPlan): RunPlan {
  const unique = [...new Map(plan.edges.map((e) => [`${e.source}\n${e.target}`, e])).values()];
  const order = topoOrder(plan.nodes.map((n) => n.id), unique);
  if (!order) throw invalid("The workflow's steps form a cycle");
  const byId = new Map(plan.nodes.map((n) => [n.id, n]));
  return { nodes: order.map((id) => byId.get(id)!), edges: unique };
}

/**
 * The flat step plan of `graph` (see the module comment). Throws ServiceError
 * VALIDATION_ERROR for a graph that cannot run (unknown type, bad params, dangling edge, loop,
 * a sub-workflow that does not exist or runs itself) and LIMIT_EXCEEDED for sub-workflows
 * nested more than MAX_NESTING_DEPTH levels deep. `selfId` lets a workflow that runs itself be
 * refused at once rather than at the depth limit.
 */
export async function expandGraph(graph: Graph, kinds: KindLookup, resolveWorkflow: ResolveWorkflow, selfId?: string): Promise<RunPlan> {
  return ordered(await expandLevel(graph, { kinds, resolve: resolveWorkflow }, "", null, { ids: selfId ? [selfId] : [], depth: 0 }));
}

/** The op steps a plan charges for (the same number countSteps gives for its graph). */
export function planSteps(plan: RunPlan, kinds: KindLookup): number {
  return plan.nodes.reduce((sum, n) => sum + (kinds.kind(n.type)?.chargedSteps ?? 0), 0);
}

// ---- scheduling ------------------------------------------------------------------------

type Edges = Pick<RunPlan, "nodes" | "edges">;

/** Each node's predecessors in a plan, in edge order. */
export function predecessors(plan: Edges): Map<string, string[]> {
  const out = new Map<string, string[]>(plan.nodes.map((n) => [n.id, []]));
  for (const e of plan.edges) out.get(e.target)?.push(e.source);
  return out;
}

/** Each node's successors in a plan, in edge order. */
export function successors(plan: Edges): Map<string, string[]> {
  const out = new Map<string, string[]>(plan.nodes.map((n) => [n.id, []]));
  for (const e of plan.edges) out.get(e.source)?.push(e.target);
  return out;
}

/** A step as the scheduling rules read it. */
export interface StepState<F = string> {
  nodeId: string;
  type: string;
  parentNodeId: string | null;
  status: StepStatus;
  outputs: readonly F[];
}

/** A step may start when it is pending and every predecessor has succeeded. */
export function isReady(step: Pick<StepState, "status">, before: readonly Pick<StepState, "status">[]): boolean {
  return step.status === "pending" && before.every((p) => p.status === "succeeded");
}

/** What a step is given: the union of its predecessors' outputs (`outputs`, in edge order), each once. */
export function stepInputs<F>(outputs: readonly (readonly F[])[]): F[] {
  return [...new Set(outputs.flat() as F[])];
}

/** A run's outputs: what its top-level sinks produced, or, with no sink, what its last top-level steps produced. */
export function runOutputs<F>(plan: Pick<RunPlan, "edges">, steps: readonly StepState<F>[]): F[] {
  const top = steps.filter((s) => s.parentNodeId === null);
  const sinks = top.filter((s) => s.type.startsWith("sink."));
  const hasSuccessor = new Set(plan.edges.map((e) => e.source));
  const ends = sinks.length ? sinks : top.filter((s) => !hasSuccessor.has(s.nodeId));
  return [...new Set(ends.flatMap((s) => s.outputs))];
}

/**
 * The run's status from its steps: failed once a step failed and nothing runs any more;
 * succeeded when every step succeeded or was skipped; waiting for an approval when that is all
 * that is left; running otherwise. `failed` is the step that failed the run.
 */
export function settleRun<S extends Pick<StepState, "status">>(steps: readonly S[]): { status: "failed"; failed: S } | { status: "succeeded" | "running" | "waiting_approval" } {
  const failed = steps.find((s) => s.status === "failed");
  const running = steps.some((s) => s.status === "running");
  if (failed && !running) return { status: "failed", failed };
  if (!failed && steps.every((s) => isPassedStep(s.status))) return { status: "succeeded" };
  const waiting = steps.some((s) => s.status === "waiting_approval");
  return { status: waiting && !running ? "waiting_approval" : "running" };
}
