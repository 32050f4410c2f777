/**
 * What a graph means, checked before it is saved or run: node ids and edges, cycles, node kinds
 * and their params, a source, the op-step budget, sub-workflow references (existence, loops,
 * depth) and whether the formats flowing along every edge can be taken by its target. Every
 * problem becomes an issue `{ code, message, nodeId? }`; nothing throws for a bad graph. Pure:
 * the node kinds and other workflows are asked through `kinds` and `resolveWorkflow`, so the
 * server (its registry, its database) and the browser (the catalog) validate alike.
 */
import type { Graph, GraphNode, ValidationIssue } from "../schemas/workflow";
import { ALL_FORMATS, checkPassThroughIo, describeFormats, flowFormats, type FlowNode, type FlowProblem, type Formats } from "./formats";
import { SOURCE_TYPE, SUB_WORKFLOW_TYPE } from "./kinds";
import { cycles, topoOrder, type Link } from "./order";
import { MAX_NESTING_DEPTH, type ResolveWorkflow } from "./plan";
import type { KindLookup, SemanticKind } from "./registry";

export interface ValidateOptions {
  /** The node kinds (the server's registry, or the catalog in the browser). */
  kinds: KindLookup;
  /** workflow.max_steps: the most op steps a run may have, sub-workflows included. */
  maxSteps: number;
  resolveWorkflow: ResolveWorkflow;
  /** The id of the workflow whose graph this is, so that it cannot run itself. */
  selfId?: string;
}

/** The outcome of validateGraph; `steps` is what a run of this graph would be charged for. */
export interface GraphValidation {
  ok: boolean;
  issues: ValidationIssue[];
  steps: number;
}

/** A graph made ready for checks: unique nodes, their kinds and checked params, usable links, an order. */
interface Prepared {
  nodes: GraphNode[];
  kinds: Map<string, SemanticKind>;
  params: Map<string, Record<string, unknown>>;
  links: Link[];
  /** Topological order of `nodes`, or null when the links loop. */
  order: string[] | null;
  issues: ValidationIssue[];
}

const label = (node: Pick<GraphNode, "id" | "type">) => `"${node.id}" (${node.type})`;

/** Ids, edges and cycles: the issues, and the links that join two existing, different nodes (each once). */
function checkStructure(graph: Graph, p: Prepared): void {
  const seen = new Set<string>();
  for (const node of graph.nodes) {
    if (!seen.has(node.id)) {
      seen.add(node.id);
      p.nodes.push(node);
    } else if (!p.issues.some((i) => i.code === "DUPLICATE_NODE_ID" && i.nodeId === node.id)) {
      p.issues.push({ code: "DUPLICATE_NODE_ID", message: `More than one node has the id "${node.id}": give each node an id of its own`, nodeId: node.id });
    }
  }
  const linked = new Set<string>();
  for (const edge of graph.edges) {
    const missing = [edge.source, edge.target].filter((id) => !seen.has(id));
    if (missing.length) {
      const name = edge.id ? `Edge "${edge.id}"` : `The edge from "${edge.source}" to "${edge.target}"`;
      const nodeId = seen.has(edge.source) ? edge.source : seen.has(edge.target) ? edge.target : undefined;
      p.issues.push({ code: "DANGLING_EDGE", message: `${name} connects "${missing[0]}", which is not a node of this graph: remove the edge or add the node`, ...(nodeId ? { nodeId } : {}) });
    } else if (edge.source === edge.target) {
      p.issues.push({ code: "CYCLE", message: `Node "${edge.source}" is connected to itself: remove that edge (a workflow must not loop back)`, nodeId: edge.source });
    } else if (!linked.has(`${edge.source}\n${edge.target}`)) {
      linked.add(`${edge.source}\n${edge.target}`);
      p.links.push({ source: edge.source, target: edge.target });
    }
  }
  const ids = p.nodes.map((n) => n.id);
  p.order = topoOrder(ids, p.links);
  if (p.order) return;
  for (const group of cycles(ids, p.links)) {
    const names = group.map((id) => `"${id}"`).join(", ");
    p.issues.push({ code: "CYCLE", message: `Nodes ${names} form a cycle: remove one of the edges between them (a workflow must not loop back)`, nodeId: group[0] });
  }
}

/** Kinds and params: unknown types, `data.type` disagreeing with `type`, params against the kind's schema. */
function checkKinds(p: Prepared, kinds: KindLookup): void {
  for (const node of p.nodes) {
    const kind = kinds.kind(node.type);
    if (!kind) {
      p.issues.push({ code: "UNKNOWN_NODE_TYPE", message: `Node "${node.id}" has the type "${node.type}", which does not exist: use one of the types GET /api/workflows/catalog lists`, nodeId: node.id });
      continue;
    }
    p.kinds.set(node.id, kind);
    if (node.data.type !== undefined && node.data.type !== node.type) {
      p.issues.push({ code: "INVALID_GRAPH", message: `Node "${node.id}" has type "${node.type}" but data.type "${node.data.type}": make them the same, or leave data.type out`, nodeId: node.id });
    }
    const checked = kinds.checkParams(node.type, node.data.params);
    if (checked.ok) p.params.set(node.id, checked.params);
    else {
      const first = checked.issues[0];
      const field = first.path === "/" ? "params" : first.path.slice(1);
      p.issues.push({ code: "INVALID_PARAMS", message: `Node ${label(node)}: ${field}: ${first.message} (GET /api/workflows/catalog gives the params ${node.type} takes)`, nodeId: node.id });
    }
  }
}

/** The checks that need no other workflow; sub-workflow graphs go through it too (their issues unused). */
function prepare(graph: Graph, kinds: KindLookup): Prepared {
  const p: Prepared = { nodes: [], kinds: new Map(), params: new Map(), links: [], order: null, issues: [] };
  checkStructure(graph, p);
  checkKinds(p, kinds);
  return p;
}

/** The workflow a valid op.workflow node names, or undefined. */
function referenced(p: Prepared, node: GraphNode): string | undefined {
  if (node.type !== SUB_WORKFLOW_TYPE) return undefined;
  const id = p.params.get(node.id)?.workflowId;
  return typeof id === "string" ? id : undefined;
}

const ownSteps = (p: Prepared) => p.nodes.reduce((sum, n) => sum + (p.kinds.get(n.id)?.chargedSteps ?? 0), 0);

/** A sub-workflow problem; `path` is the chain of workflow ids from the one the root node names to the culprit. */
interface RefProblem {
  code: "CYCLE" | "UNKNOWN_WORKFLOW" | "NESTING_TOO_DEEP";
  path: string[];
}

interface SubTree {
  steps: number;
  problem: RefProblem | null;
}

/**
 * Walks sub-workflow references: resolves each workflow once, counts op steps through them, and
 * finds the first loop, unknown workflow or too deep nesting below each root node. Results are
 * kept per (workflow, depth), so a workflow used many times is walked once per level; a loop is
 * judged against the chain that first reached it, which can only name a real loop.
 */
class References {
  private readonly graphs = new Map<string, Promise<Prepared | null>>();
  private readonly trees = new Map<string, Promise<SubTree>>();

  constructor(
    private readonly resolve: ResolveWorkflow,
    private readonly kinds: KindLookup,
  ) {}

  /** The prepared graph of a workflow, or null (resolved at most once). */
  graph(id: string): Promise<Prepared | null> {
    let found = this.graphs.get(id);
    if (!found) {
      found = this.resolve(id).then((g) => (g ? prepare(g, this.kinds) : null));
      this.graphs.set(id, found);
    }
    return found;
  }

  /** Steps and first problem of workflow `id`, reached through `chain`, at nesting `depth` (1 = run by the root). */
  subtree(id: string, chain: readonly string[], depth: number): Promise<SubTree> {
    if (chain.includes(id)) return Promise.resolve({ steps: 0, problem: { code: "CYCLE", path: [id] } });
    const key = `${depth}:${id}`;
    let tree = this.trees.get(key);
    if (!tree) {
      tree = this.walk(id, [...chain, id], depth);
      this.trees.set(key, tree);
    }
    return tree;
  }

  private async walk(id: string, chain: string[], depth: number): Promise<SubTree> {
    const p = await this.graph(id);
    if (!p) return { steps: 0, problem: { code: "UNKNOWN_WORKFLOW", path: [id] } };
    let steps = ownSteps(p);
    let problem: RefProblem | null = null;
    for (const node of p.nodes) {
      const next = referenced(p, node);
      if (next === undefined) continue;
      if (depth >= MAX_NESTING_DEPTH) {
        problem ??= { code: "NESTING_TOO_DEEP", path: [id, next] };
        continue;
      }
      const sub = await this.subtree(next, chain, depth + 1);
      steps += sub.steps;
      if (sub.problem) problem ??= { code: sub.problem.code, path: [id, ...sub.problem.path] };
    }
    return { steps, problem };
  }
}

function refMessage(node: GraphNode, problem: RefProblem): string {
  const chain = problem.path.map((id) => `"${id}"`).join(" → ");
  const runs = `Node ${label(node)} runs workflow ${chain}`;
  if (problem.code === "UNKNOWN_WORKFLOW") return `${runs}, and "${problem.path.at(-1)}" does not exist or is not yours: set params.workflowId to one of your workflows`;
  if (problem.code === "CYCLE") return `${runs}, which runs a workflow already running: a workflow must not run itself, directly or through others, so pick another workflow`;
  return `${runs}: sub-workflows may nest at most ${MAX_NESTING_DEPTH} levels deep, so move the steps of the deepest one into the workflow that runs it`;
}

/** Steps of the root graph and its sub-workflows; reference issues on the root's op.workflow nodes. */
async function checkReferences(p: Prepared, refs: References, selfId: string | undefined): Promise<number> {
  let steps = ownSteps(p);
  const chain = selfId ? [selfId] : [];
  for (const node of p.nodes) {
    const id = referenced(p, node);
    if (id === undefined) continue;
    const sub = await refs.subtree(id, chain, 1);
    steps += sub.steps;
    if (sub.problem) p.issues.push({ code: sub.problem.code, message: refMessage(node, sub.problem), nodeId: node.id });
  }
  return steps;
}

/**
 * The op steps a run of `graph` is charged for: one per op.<tool> node, plus those of the
 * sub-workflows its op.workflow nodes run (recursively, up to the nesting limit; unknown or
 * looping references count nothing). The estimate and the run's charge use this number.
 */
export async function countSteps(graph: Graph, kinds: KindLookup, resolveWorkflow: ResolveWorkflow, selfId?: string): Promise<number> {
  return checkReferences(prepare(graph, kinds), new References(resolveWorkflow, kinds), selfId);
}

/**
 * What a user reads when a run would have more tool steps than workflow.max_steps. Steps of
 * sub-workflows count too, so moving steps into an op.workflow does not help; separate runs do.
 */
export function tooManyStepsMessage(steps: number, maxSteps: number): string {
  return `The workflow has ${steps} tool steps (op.<tool> nodes, its sub-workflows' included); at most ${maxSteps} are allowed (workflow.max_steps): remove tool steps, or split the work into workflows you run one after the other (moving steps into an op.workflow does not help, they still count), or ask an administrator to raise workflow.max_steps`;
}

// ---- formats along the edges ------------------------------------------------------------
// The flow itself is shared with the web editor (formats.ts); here it gets the kinds' io and
// params, sub-workflows through resolveWorkflow, and the wording for someone editing graphJson.

/** A prepared graph's nodes as the shared flow sees them. */
function flowNodes(p: Prepared): FlowNode[] {
  return p.nodes.map((node) => {
    const kind = p.kinds.get(node.id);
    const params = p.params.get(node.id);
    const picked = params && kind?.producesFor?.(params);
    const runs = referenced(p, node);
    return { id: node.id, type: node.type, io: kind?.io, narrow: node.data.io, ...(picked ? { picked } : {}), ...(runs !== undefined ? { runs } : {}) };
  });
}

/** A problem of the flow as a validation issue, worded for someone editing the graph's JSON. */
function flowIssue(problem: FlowProblem): ValidationIssue {
  const { node } = problem;
  if (problem.code === "IO_MISMATCH") {
    return { code: "IO_MISMATCH", message: `Node ${label(node)} accepts ${describeFormats(problem.accepts)}, but ${label(problem.source)} produces ${describeFormats(problem.produces)}: connect a node that gives what it accepts, or put a conversion step between them`, nodeId: node.id };
  }
  const { side, format, own } = problem;
  const why = !ALL_FORMATS.has(format) ? "not a known format" : `not something ${node.type} ${side === "accepts" ? "accepts" : "produces"} (${describeFormats(own)})`;
  return { code: "IO_MISMATCH", message: `Node "${node.id}": io.${side} lists "${format}", ${why}: remove it from io.${side}`, nodeId: node.id };
}

/** Flows formats through prepared graphs; sub-workflows flow with their op node's inputs. */
class FormatFlow {
  private readonly exits = new Map<string, Promise<Formats>>();

  constructor(private readonly refs: References) {}

  /**
   * The formats each node gives. `seed` is what entry nodes receive (nothing at the top, the
   * op.workflow node's inputs in a sub-workflow, where source.upload passes them on).
   * Mismatches are pushed to `report` (null for sub-workflows: their own validation reports them).
   */
  async run(p: Prepared, seed: Formats, depth: number, report: ValidationIssue[] | null): Promise<Map<string, Formats>> {
    const graph = { nodes: flowNodes(p), links: p.links, order: p.order ?? [] };
    const flow = flowFormats(graph, { seed, nested: depth > 0, report: report ? (problem) => report.push(flowIssue(problem)) : undefined });
    let step = flow.next();
    while (!step.done) step = flow.next(await this.subWorkflow(step.value.workflowId, step.value.given, depth + 1));
    return step.value.formats;
  }

  /** What the exits of sub-workflow `id` (at `depth`) give for inputs `given`; any format when unknowable. */
  private subWorkflow(id: string, given: Formats, depth: number): Promise<Formats> {
    const key = `${depth}:${id}:${[...given].sort().join(",")}`;
    let found = this.exits.get(key);
    if (!found) {
      found = this.exitFormats(id, given, depth);
      this.exits.set(key, found);
    }
    return found;
  }

  private async exitFormats(id: string, given: Formats, depth: number): Promise<Formats> {
    const child = depth > MAX_NESTING_DEPTH ? null : await this.refs.graph(id);
    if (!child?.order) return ALL_FORMATS;
    const out = await this.run(child, given, depth, null);
    const exits = child.nodes.filter((n) => !child.links.some((l) => l.source === n.id));
    return new Set(exits.flatMap((n) => [...out.get(n.id)!]));
  }
}

/**
 * Checks a graph (see the module comment for the list). `steps` counts op steps including
 * sub-workflows'; over `maxSteps` is TOO_MANY_STEPS. Format compatibility is judged only on an
 * acyclic graph.
 */
export async function validateGraph(graph: Graph, opts: ValidateOptions): Promise<GraphValidation> {
  const p = prepare(graph, opts.kinds);
  if (!p.nodes.some((n) => n.type === SOURCE_TYPE)) {
    p.issues.push({ code: "NO_SOURCE", message: `Add a ${SOURCE_TYPE} node: it is where a run's files come in, and a workflow needs one` });
  }
  const refs = new References(opts.resolveWorkflow, opts.kinds);
  const steps = await checkReferences(p, refs, opts.selfId);
  if (steps > opts.maxSteps) {
    p.issues.push({ code: "TOO_MANY_STEPS", message: tooManyStepsMessage(steps, opts.maxSteps) });
  }
  if (p.order) {
    checkPassThroughIo(flowNodes(p), (problem) => p.issues.push(flowIssue(problem)));
    await new FormatFlow(refs).run(p, new Set(), 0, p.issues);
  }
  return { ok: p.issues.length === 0, issues: p.issues, steps };
}
