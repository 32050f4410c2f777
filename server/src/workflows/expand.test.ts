import { describe, expect, test } from "bun:test";
import { rejection } from "@vektor/shared/testing";
import type { Graph } from "@vektor/shared/schemas/workflow";
import { expandGraph, planSteps, type RunPlan } from "./expand";
import { chainOf, graphOf, resolverOf } from "./testing/graphs";
import { countSteps, validateGraph } from "./validate";

const runs = (workflowId: string, id: string): Graph => chainOf(["in", "source.upload"], [id, "op.workflow", { workflowId }], ["out", "sink.download"]);

/** Every edge joins two plan nodes and goes forward in the node order; ids are unique. */
function expectTopological(plan: RunPlan) {
  const at = new Map(plan.nodes.map((n, i) => [n.id, i]));
  expect(at.size).toBe(plan.nodes.length);
  for (const e of plan.edges) {
    expect(at.has(e.source) && at.has(e.target)).toBe(true);
    expect(at.get(e.source)!).toBeLessThan(at.get(e.target)!);
  }
}

const preds = (plan: RunPlan, id: string) => plan.edges.filter((e) => e.target === id).map((e) => e.source).sort();

describe("expandGraph", () => {
  test("a graph without sub-workflows: its nodes in order, params checked with defaults", async () => {
    const plan = await expandGraph(graphOf([["z", "sink.zip"], ["c", "op.pdf.compress"], ["in", "source.upload"]], [["in", "c"], ["c", "z"]]), resolverOf({}));
    expect(plan.nodes).toEqual([
      { id: "in", type: "source.upload", params: { sinceLastRun: false }, parentId: null, nested: false },
      { id: "c", type: "op.pdf.compress", params: { level: 6 }, parentId: null, nested: false },
      { id: "z", type: "sink.zip", params: { name: "outputs.zip" }, parentId: null, nested: false },
    ]);
    expect(plan.edges).toEqual([{ source: "in", target: "c" }, { source: "c", target: "z" }]);
  });

  test("three levels of sub-workflows are inlined: entries after the op node's predecessors, the op node after the exits", async () => {
    const workflows = {
      a: chainOf(["t", "trigger.manual"], ["in", "source.upload"], ["w2", "op.workflow", { workflowId: "b" }], ["out", "sink.download"]),
      b: graphOf([["in", "source.upload"], ["w3", "op.workflow", { workflowId: "c" }], ["rot", "op.pdf.rotate"]], [["in", "w3"], ["w3", "rot"]]),
      c: chainOf(["in", "source.upload"], ["comp", "op.pdf.compress", { level: 9 }], ["out", "sink.download"]),
    };
    const root = graphOf([["in", "source.upload"], ["f", "logic.filter", { formats: ["pdf"] }], ["w1", "op.workflow", { workflowId: "a" }], ["zip", "sink.zip"]], [["in", "f"], ["in", "w1"], ["f", "w1"], ["w1", "zip"]]);
    const resolve = resolverOf(workflows);
    expect((await validateGraph(root, { maxSteps: 25, resolveWorkflow: resolve })).ok).toBe(true);
    const plan = await expandGraph(root, resolve);
    expectTopological(plan);

    const node = (id: string) => plan.nodes.find((n) => n.id === id)!;
    expect(plan.nodes.map((n) => n.id).sort()).toEqual(
      ["in", "f", "w1", "zip", "w1/t", "w1/in", "w1/w2", "w1/out", "w1/w2/in", "w1/w2/w3", "w1/w2/rot", "w1/w2/w3/in", "w1/w2/w3/comp", "w1/w2/w3/out"].sort(),
    );
    expect(node("w1/w2/w3/comp")).toEqual({ id: "w1/w2/w3/comp", type: "op.pdf.compress", params: { level: 9 }, parentId: "w1/w2/w3", nested: true });
    expect(node("w1/in")).toMatchObject({ parentId: "w1", nested: true });
    expect(node("w1/w2/in")).toMatchObject({ parentId: "w1/w2", nested: true });
    expect(node("w1")).toMatchObject({ parentId: null, nested: false });

    // The child's entry takes the op node's predecessors; the op node takes the child's exits.
    expect(preds(plan, "w1/t")).toEqual(["f", "in"]);
    expect(preds(plan, "w1")).toEqual(["w1/out"]);
    expect(preds(plan, "w1/w2/in")).toEqual(["w1/in"]);
    expect(preds(plan, "w1/w2")).toEqual(["w1/w2/rot"]);
    expect(preds(plan, "w1/w2/w3/in")).toEqual(["w1/w2/in"]);
    expect(preds(plan, "w1/w2/w3")).toEqual(["w1/w2/w3/out"]);
    expect(preds(plan, "w1/w2/rot")).toEqual(["w1/w2/w3"]);
    expect(preds(plan, "zip")).toEqual(["w1"]);

    expect(planSteps(plan)).toBe(2);
    expect(await countSteps(root, resolve)).toBe(2);
  });

  test("a sub-workflow with several entries and exits; an op node with no predecessor", async () => {
    const both = graphOf([["a", "source.upload"], ["b", "source.upload"], ["x", "sink.download"], ["y", "sink.zip"]], [["a", "x"], ["b", "y"]]);
    const root = graphOf([["in", "source.upload"], ["w", "op.workflow", { workflowId: "both" }], ["lone", "op.workflow", { workflowId: "both" }]], [["in", "w"]]);
    const plan = await expandGraph(root, resolverOf({ both }));
    expectTopological(plan);
    expect(preds(plan, "w/a")).toEqual(["in"]);
    expect(preds(plan, "w/b")).toEqual(["in"]);
    expect(preds(plan, "w")).toEqual(["w/x", "w/y"]);
    expect(preds(plan, "lone/a")).toEqual([]);
    expect(preds(plan, "lone")).toEqual(["lone/x", "lone/y"]);
  });

  test("a fourth level is LIMIT_EXCEEDED", async () => {
    const resolve = resolverOf({ a: runs("b", "w"), b: runs("c", "w"), c: runs("d", "w"), d: chainOf(["in", "source.upload"]) });
    const err = await rejection(expandGraph(runs("a", "w"), resolve));
    expect(err.code).toBe("LIMIT_EXCEEDED");
    expect(err.message).toContain('"w/w/w/w"');
  });

  test("a workflow that runs itself, an unknown workflow, bad params: VALIDATION_ERROR", async () => {
    expect((await rejection(expandGraph(runs("me", "w"), resolverOf({ me: runs("me", "w") }), "me"))).code).toBe("VALIDATION_ERROR");
    expect((await rejection(expandGraph(runs("a", "w"), resolverOf({ a: runs("b", "w"), b: runs("a", "w") })))).code).toBe("VALIDATION_ERROR");
    expect((await rejection(expandGraph(runs("gone", "w"), resolverOf({})))).message).toContain('"gone"');
    expect((await rejection(expandGraph(chainOf(["in", "source.upload"], ["c", "op.pdf.compress", { level: 0 }]), resolverOf({})))).code).toBe("VALIDATION_ERROR");
    expect((await rejection(expandGraph(chainOf(["in", "source.upload"], ["c", "op.nope"]), resolverOf({})))).code).toBe("VALIDATION_ERROR");
  });
});
