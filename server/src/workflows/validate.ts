/**
 * What a graph means, checked before it is saved or run: the shared validation
 * (shared/src/workflows/validate.ts) over this server's node registry. Every problem is an
 * issue `{ code, message, nodeId? }`; nothing throws for a bad graph.
 */
import type { Graph } from "@vektor/shared/schemas/workflow";
import type { ResolveWorkflow } from "@vektor/shared/workflows/plan";
import { countSteps as count, validateGraph as validate, type GraphValidation, type ValidateOptions as SharedOptions } from "@vektor/shared/workflows/validate";
import { KINDS } from "./nodes/index";

export { MAX_NESTING_DEPTH, type ResolveWorkflow } from "@vektor/shared/workflows/plan";
export { tooManyStepsMessage, type GraphValidation } from "@vektor/shared/workflows/validate";

export type ValidateOptions = Omit<SharedOptions, "kinds">;

/** Checks a graph against the registry's kinds; see the shared validateGraph. */
export function validateGraph(graph: Graph, opts: ValidateOptions): Promise<GraphValidation> {
  return validate(graph, { ...opts, kinds: KINDS });
}

/** The op steps a run of `graph` is charged for, sub-workflows' included (see the shared countSteps). */
export function countSteps(graph: Graph, resolveWorkflow: ResolveWorkflow, selfId?: string): Promise<number> {
  return count(graph, KINDS, resolveWorkflow, selfId);
}
