/**
 * A graph -> the flat plan a run executes: the shared planning (shared/src/workflows/plan.ts,
 * which the browser runner uses too) over this server's node registry.
 */
import type { Graph } from "@vektor/shared/schemas/workflow";
import { expandGraph as expand, planSteps as countPlanSteps, type ResolveWorkflow, type RunPlan } from "@vektor/shared/workflows/plan";
import { KINDS } from "./nodes/index";

export type { PlanNode, RunPlan } from "@vektor/shared/workflows/plan";

/**
 * The flat step plan of `graph` (sub-workflows inlined, in topological order). Throws
 * ServiceError VALIDATION_ERROR for a graph that cannot run and LIMIT_EXCEEDED for sub-workflows
 * nested too deep; `selfId` refuses a workflow that runs itself at once.
 */
export function expandGraph(graph: Graph, resolveWorkflow: ResolveWorkflow, selfId?: string): Promise<RunPlan> {
  return expand(graph, KINDS, resolveWorkflow, selfId);
}

/** The op steps a plan charges for (the same number countSteps gives for its graph). */
export function planSteps(plan: RunPlan): number {
  return countPlanSteps(plan, KINDS);
}
