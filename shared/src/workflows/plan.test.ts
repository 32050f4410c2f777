import { describe, expect, test } from "bun:test";
import { ServiceError } from "../errors";
import { expandGraph, isReady, planSteps, predecessors, runOutputs, settleRun, stepInputs, successors, type StepState } from "./plan";
import { chainOf, graphOf, resolverOf, SMALL_KINDS } from "./testing";

const none = resolverOf({});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ServiceError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("expandGraph", () => {
  test("orders the nodes, fills params' defaults and drops repeated edges", async () => {
    const graph = graphOf([["z", "sink.zip"], ["c", "op.pdf.compress"], ["in", "source.upload"]], [["in", "c"], ["c", "z"], ["in", "c"]]);
    const plan = await expandGraph(graph, SMALL_KINDS, none);
    expect(plan.nodes).toEqual([
      { id: "in", type: "source.upload", params: { sinceLastRun: false }, parentId: null, nested: false },
      { id: "c", type: "op.pdf.compress", params: { level: 6 }, parentId: null, nested: false },
      { id: "z", type: "sink.zip", params: { name: "outputs.zip" }, parentId: null, nested: false },
    ]);
    expect(plan.edges).toEqual([{ source: "in", target: "c" }, { source: "c", target: "z" }]);
    expect(planSteps(plan, SMALL_KINDS)).toBe(1);
  });

  test("inlines a sub-workflow: its entries after the op node's predecessors, the op node after its exits", async () => {
    const child = chainOf(["in", "source.upload"], ["c", "op.pdf.compress"]);
    const plan = await expandGraph(chainOf(["in", "source.upload"], ["w", "op.workflow", { workflowId: "child" }], ["out", "sink.download"]), SMALL_KINDS, resolverOf({ child }));
    expect(plan.nodes.map((n) => [n.id, n.parentId, n.nested])).toEqual([
      ["in", null, false],
      ["w/in", "w", true],
      ["w/c", "w", true],
      ["w", null, false],
      ["out", null, false],
    ]);
    const preds = predecessors(plan);
    expect(preds.get("w/in")).toEqual(["in"]);
    expect(preds.get("w")).toEqual(["w/c"]);
    expect(successors(plan).get("w")).toEqual(["out"]);
  });

  test("refuses what cannot run: unknown kinds, bad params, loops, missing or self-running sub-workflows, nesting too deep", async () => {
    expect(await refusal(expandGraph(graphOf([["x", "op.nope"]]), SMALL_KINDS, none))).toEqual({ code: "VALIDATION_ERROR", message: 'Node "x" has the unknown type "op.nope"' });
    expect((await refusal(expandGraph(graphOf([["f", "logic.filter", { what: 1 }]]), SMALL_KINDS, none))).message).toContain("what");
    expect((await refusal(expandGraph(graphOf([["a", "logic.merge"], ["b", "logic.merge"]], [["a", "b"], ["b", "a"]]), SMALL_KINDS, none))).message).toBe("The workflow's steps form a cycle");
    expect((await refusal(expandGraph(graphOf([["w", "op.workflow", { workflowId: "gone" }]]), SMALL_KINDS, none))).message).toContain("does not exist");
    const self = graphOf([["w", "op.workflow", { workflowId: "me" }]]);
    expect((await refusal(expandGraph(self, SMALL_KINDS, resolverOf({ me: self }), "me"))).message).toContain("already running");
    const deep = (next: string) => graphOf([["w", "op.workflow", { workflowId: next }]]);
    expect((await refusal(expandGraph(deep("a"), SMALL_KINDS, resolverOf({ a: deep("b"), b: deep("c"), c: deep("d"), d: graphOf([]) })))).code).toBe("LIMIT_EXCEEDED");
  });
});

const step = (nodeId: string, status: StepState["status"], outputs: string[] = [], more: Partial<StepState> = {}): StepState => ({ nodeId, type: "logic.merge", parentNodeId: null, status, outputs, ...more });

describe("scheduling", () => {
  test("a pending step is ready once every predecessor succeeded", () => {
    expect(isReady(step("a", "pending"), [])).toBe(true);
    expect(isReady(step("a", "pending"), [step("p", "succeeded"), step("q", "succeeded")])).toBe(true);
    expect(isReady(step("a", "pending"), [step("p", "succeeded"), step("q", "running")])).toBe(false);
    expect(isReady(step("a", "pending"), [step("p", "skipped")])).toBe(false);
    expect(isReady(step("a", "running"), [])).toBe(false);
  });

  test("a step is given its predecessors' outputs in edge order, each once", () => {
    expect(stepInputs([["a", "b"], ["b", "c"], []])).toEqual(["a", "b", "c"]);
  });

  test("the run's outputs are its top-level sinks', else its last top-level steps'", () => {
    const plan = { edges: [{ source: "in", target: "c" }, { source: "c", target: "z" }] };
    const sinkless = [step("in", "succeeded", ["f1"]), step("c", "succeeded", ["f2"]), step("z", "succeeded", ["f3", "f2"])];
    expect(runOutputs(plan, sinkless)).toEqual(["f3", "f2"]);
    const sinks = [step("in", "succeeded", ["f1"]), step("d", "succeeded", ["f1"], { type: "sink.download" }), step("z", "succeeded", ["f9"], { type: "sink.zip" }), step("w/z", "succeeded", ["f8"], { type: "sink.zip", parentNodeId: "w" })];
    expect(runOutputs({ edges: [{ source: "in", target: "d" }, { source: "in", target: "z" }] }, sinks)).toEqual(["f1", "f9"]);
  });

  test("the run settles: failed once nothing runs, succeeded when all passed, waiting when only approvals are left", () => {
    expect(settleRun([step("a", "succeeded"), step("b", "skipped")])).toEqual({ status: "succeeded" });
    expect(settleRun([step("a", "failed"), step("b", "running")])).toEqual({ status: "running" });
    const failed = step("a", "failed");
    expect(settleRun([failed, step("b", "pending")])).toEqual({ status: "failed", failed });
    expect(settleRun([step("a", "waiting_approval"), step("b", "pending")])).toEqual({ status: "waiting_approval" });
    expect(settleRun([step("a", "waiting_approval"), step("b", "running")])).toEqual({ status: "running" });
  });
});
