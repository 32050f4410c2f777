import { describe, expect, test } from "bun:test";
import type { Graph } from "@vektor/shared/schemas/workflow";
import { chainOf, graphOf, resolverOf, type NodeRow } from "./testing/graphs";
import { countSteps, MAX_NESTING_DEPTH, validateGraph, type ValidateOptions } from "./validate";

const SRC: NodeRow = ["in", "source.upload"];
const OUT: NodeRow = ["out", "sink.download"];

async function check(graph: Graph, opts: Partial<ValidateOptions> = {}) {
  return validateGraph(graph, { maxSteps: 25, resolveWorkflow: resolverOf({}), ...opts });
}
const codesOf = async (graph: Graph, opts?: Partial<ValidateOptions>) => (await check(graph, opts)).issues.map((i) => i.code);

describe("validateGraph: structure", () => {
  test("a plain chain is valid and counts its op steps", async () => {
    const r = await check(chainOf(SRC, ["c", "op.pdf.compress"], ["r", "op.pdf.rotate", { degrees: 180 }], ["z", "sink.zip"]));
    expect(r).toEqual({ ok: true, issues: [], steps: 2 });
  });

  test("a trigger before the source is fine", async () => {
    expect(await codesOf(chainOf(["t", "trigger.manual"], SRC, ["c", "op.pdf.compress"], OUT))).toEqual([]);
  });

  test("duplicate ids: one issue per id", async () => {
    const g = graphOf([SRC, ["a", "logic.merge"], ["a", "logic.merge"], ["a", "sink.zip"]], [["in", "a"]]);
    const r = await check(g);
    expect(r.issues).toEqual([{ code: "DUPLICATE_NODE_ID", message: expect.stringContaining('"a"'), nodeId: "a" }]);
  });

  test("an edge to or from a missing node is DANGLING_EDGE, named by the existing end", async () => {
    const g = graphOf([SRC, OUT], [["in", "out"], ["in", "ghost"], ["nowhere", "out"]]);
    const r = await check(g);
    expect(r.issues.map((i) => [i.code, i.nodeId])).toEqual([["DANGLING_EDGE", "in"], ["DANGLING_EDGE", "out"]]);
    expect(r.issues[0].message).toContain('"ghost"');
  });

  test("self-loops and cycles are CYCLE", async () => {
    const g = graphOf([SRC, ["a", "logic.merge"], ["b", "logic.filter"], ["c", "logic.merge"]], [["in", "a"], ["a", "b"], ["b", "a"], ["c", "c"]]);
    const r = await check(g);
    expect(r.issues.map((i) => [i.code, i.nodeId])).toEqual([["CYCLE", "c"], ["CYCLE", "a"]]);
    expect(r.issues[1].message).toContain('"a", "b"');
  });

  test("unknown types; data.type must equal type", async () => {
    const g = graphOf([SRC, ["x", "op.pdf.explode"], ["y", "sink.download"]]);
    g.nodes[2].data.type = "sink.zip";
    const r = await check(g);
    expect(r.issues.map((i) => [i.code, i.nodeId])).toEqual([["UNKNOWN_NODE_TYPE", "x"], ["INVALID_GRAPH", "y"]]);
  });

  test("a graph without source.upload is NO_SOURCE", async () => {
    expect(await codesOf(chainOf(["t", "trigger.manual"], OUT))).toEqual(["NO_SOURCE"]);
    expect(await codesOf({ nodes: [], edges: [] })).toEqual(["NO_SOURCE"]);
  });

  test("params are checked against the kind's schema: first problem, named", async () => {
    const r = await check(chainOf(SRC, ["c", "op.pdf.compress", { level: 99 }], ["f", "logic.filter", { glob: "" }], ["a", "logic.approval", { timeoutSeconds: 0 }], ["z", "sink.zip", { name: "" }]));
    expect(r.issues.map((i) => [i.code, i.nodeId])).toEqual([["INVALID_PARAMS", "c"], ["INVALID_PARAMS", "f"], ["INVALID_PARAMS", "a"], ["INVALID_PARAMS", "z"]]);
    expect(r.issues[0].message).toMatch(/^Node "c" \(op\.pdf\.compress\): level: /);
    expect(r.issues[2].message).toContain("timeoutSeconds");
    const extra = await check(chainOf(SRC, ["c", "op.pdf.compress", { levle: 9 }]));
    expect(extra.issues).toEqual([{ code: "INVALID_PARAMS", message: 'Node "c" (op.pdf.compress): levle: Unexpected property (GET /api/workflows/catalog gives the params op.pdf.compress takes)', nodeId: "c" }]);
  });

  test("a rename pattern may only use the known placeholders", async () => {
    expect(await codesOf(chainOf(SRC, ["r", "sink.rename", { pattern: "{name}-{index}-{date}{ext}" }]))).toEqual([]);
    expect(await codesOf(chainOf(SRC, ["r", "sink.rename", { pattern: "{title}{ext}" }]))).toEqual(["INVALID_PARAMS"]);
  });

  test("more op steps than maxSteps is TOO_MANY_STEPS; the count is still given", async () => {
    const g = chainOf(SRC, ["a", "op.pdf.compress"], ["b", "op.pdf.rotate"], ["c", "op.pdf.compress"], OUT);
    const r = await check(g, { maxSteps: 2 });
    expect(r.steps).toBe(3);
    expect(r.issues).toEqual([{ code: "TOO_MANY_STEPS", message: expect.stringContaining("3 tool steps") }]);
    expect((await check(g, { maxSteps: 3 })).ok).toBe(true);
  });

  test("every problem is reported at once, nothing throws", async () => {
    const g = graphOf([["a", "nope"], ["a", "logic.merge"], ["c", "op.pdf.compress", { level: "x" }]], [["a", "zz"]]);
    expect(await codesOf(g)).toEqual(["DUPLICATE_NODE_ID", "DANGLING_EDGE", "UNKNOWN_NODE_TYPE", "INVALID_PARAMS", "NO_SOURCE"]);
  });
});

describe("validateGraph: formats along the edges", () => {
  test("a tool that cannot read what comes in is IO_MISMATCH on the target, reported once", async () => {
    const r = await check(chainOf(SRC, ["pdf", "op.pdf.compress"], ["cad", "op.cad.convert"], ["info", "op.gis.info"], OUT));
    expect(r.issues.map((i) => [i.code, i.nodeId])).toEqual([["IO_MISMATCH", "cad"], ["IO_MISMATCH", "info"]]);
    expect(r.issues[0].message).toBe('Node "cad" (op.cad.convert) accepts step, iges, brep, but "pdf" (op.pdf.compress) produces pdf: connect a node that gives what it accepts, or put a conversion step between them');
  });

  test("a choice param naming a produced format narrows the output", async () => {
    expect(await codesOf(chainOf(SRC, ["g", "op.gis.convert", { to: "gpkg" }], ["i", "op.gis.info"]))).toEqual([]);
    expect(await codesOf(chainOf(SRC, ["c", "op.cad.convert", { format: "stl" }], ["i", "op.bim.ifc-to-glb"]))).toEqual(["IO_MISMATCH"]);
    // Defaults count: cad.convert gives glb unless told otherwise.
    const r = await check(chainOf(SRC, ["c", "op.cad.convert"], ["x", "op.pdf.compress"]));
    expect(r.issues[0].message).toContain('"c" (op.cad.convert) produces glb');
    // A free-text param is not a format choice: pdf.metadata still gives json and pdf.
    expect(await codesOf(chainOf(SRC, ["m", "op.pdf.metadata", { title: "json" }], ["x", "op.pdf.compress"]))).toEqual([]);
  });

  test("a trigger gives no files: an op right after it is IO_MISMATCH", async () => {
    const r = await check(graphOf([["t", "trigger.manual"], ["c", "op.pdf.compress"], SRC], [["t", "c"]]));
    expect(r.issues.map((i) => i.code)).toEqual(["IO_MISMATCH"]);
    expect(r.issues[0].message).toContain("produces no files");
  });

  test("pass-through nodes carry their inputs' formats; a filter's formats narrow them", async () => {
    expect(await codesOf(chainOf(SRC, ["p", "op.pdf.compress"], ["m", "logic.merge"], ["a", "logic.approval"], ["r", "sink.rename"], ["c", "op.cad.convert"]))).toEqual(["IO_MISMATCH"]);
    expect(await codesOf(chainOf(SRC, ["f", "logic.filter", { formats: ["step", "pdf"] }], ["c", "op.cad.convert"]))).toEqual([]);
    expect(await codesOf(chainOf(SRC, ["f", "logic.filter", { formats: ["pdf"] }], ["c", "op.cad.convert"]))).toEqual(["IO_MISMATCH"]);
  });

  test("sink.zip gives a zip, which a tool that reads zips can take", async () => {
    expect(await codesOf(chainOf(SRC, ["z", "sink.zip"], ["b", "op.pcb.render-board"]))).toEqual([]);
    expect(await codesOf(chainOf(SRC, ["z", "sink.zip"], ["p", "op.pdf.compress"]))).toEqual(["IO_MISMATCH"]);
  });

  test("each edge is judged on its own: a merge of a good and a bad branch flags the bad edge only", async () => {
    const g = graphOf(
      [SRC, ["pdf", "op.pdf.compress"], ["cad", "op.cad.convert", { format: "stl" }], ["m", "logic.merge"], ["glb", "op.bim.ifc-to-glb"], ["c2", "op.pdf.rotate"]],
      [["in", "pdf"], ["in", "cad"], ["pdf", "m"], ["cad", "m"], ["m", "c2"], ["cad", "glb"]],
    );
    const r = await check(g);
    expect(r.issues.map((i) => [i.code, i.nodeId])).toEqual([["IO_MISMATCH", "glb"]]);
  });

  test("data.io narrows a node's formats and must stay within the kind's", async () => {
    const withIo = (g: Graph, id: string, io: { accepts?: string[]; produces?: string[] }) => {
      g.nodes.find((n) => n.id === id)!.data.io = io;
      return g;
    };
    expect(await codesOf(withIo(chainOf(SRC, ["m", "op.pdf.metadata"], ["c", "op.pdf.compress"]), "m", { produces: ["json"] }))).toEqual(["IO_MISMATCH"]);
    expect(await codesOf(withIo(chainOf(SRC, ["m", "op.pdf.metadata"], ["c", "op.pdf.compress"]), "m", { produces: ["pdf"] }))).toEqual([]);
    const outside = await check(withIo(chainOf(SRC, ["m", "op.pdf.metadata"], OUT), "m", { accepts: ["step"] }));
    expect(outside.issues.map((i) => [i.code, i.nodeId])).toEqual([["IO_MISMATCH", "m"]]);
    expect(outside.issues[0].message).toContain('io.accepts lists "step"');
    expect(await codesOf(withIo(chainOf(SRC, ["r", "sink.rename"], OUT), "r", { produces: ["nonsense"] }))).toEqual(["IO_MISMATCH"]);
    expect(await codesOf(withIo(chainOf(SRC, ["r", "sink.rename"], ["c", "op.cad.convert"]), "r", { produces: ["pdf"] }))).toEqual(["IO_MISMATCH"]);
    expect(await codesOf(withIo(chainOf(SRC, ["r", "logic.merge"], ["c", "op.cad.convert"]), "r", { accepts: ["step"] }))).toEqual([]);
    expect(await codesOf(withIo(chainOf(SRC, ["p", "op.pdf.compress"], ["r", "logic.merge"]), "r", { accepts: ["step"] }))).toEqual(["IO_MISMATCH"]);
    expect(await codesOf(withIo(chainOf(SRC, ["r", "logic.merge"]), "r", { accepts: ["nonsense"] }))).toEqual(["IO_MISMATCH"]);
  });

  test("formats are not judged on a graph that loops", async () => {
    const g = graphOf([SRC, ["p", "op.pdf.compress"], ["c", "op.cad.convert"]], [["in", "p"], ["p", "c"], ["c", "p"]]);
    expect(await codesOf(g)).toEqual(["CYCLE"]);
  });
});

describe("validateGraph: sub-workflows", () => {
  const pdfFlow = chainOf(SRC, ["c", "op.pdf.compress"], ["r", "op.pdf.rotate"], OUT);
  const passFlow = chainOf(["t", "trigger.manual"], SRC, OUT);
  const runs = (workflowId: string, id = "w"): Graph => chainOf(SRC, [id, "op.workflow", { workflowId }], OUT);

  test("the steps of a sub-workflow count, once per use", async () => {
    const g = graphOf([SRC, ["w1", "op.workflow", { workflowId: "pdf" }], ["w2", "op.workflow", { workflowId: "pdf" }], ["c", "op.pdf.compress"]], [["in", "w1"], ["in", "w2"], ["w1", "c"]]);
    const resolve = resolverOf({ pdf: pdfFlow });
    const r = await check(g, { resolveWorkflow: resolve });
    expect(r).toEqual({ ok: true, issues: [], steps: 5 });
    expect(resolve.asked).toEqual(["pdf"]);
    expect(await countSteps(g, resolve)).toBe(5);
    expect((await check(g, { resolveWorkflow: resolve, maxSteps: 4 })).issues.map((i) => i.code)).toEqual(["TOO_MANY_STEPS"]);
  });

  test("an unknown (or someone else's) workflow is UNKNOWN_WORKFLOW on the node, also deeper down", async () => {
    const r = await check(runs("missing"));
    expect(r.issues).toEqual([{ code: "UNKNOWN_WORKFLOW", message: 'Node "w" (op.workflow) runs workflow "missing", and "missing" does not exist or is not yours: set params.workflowId to one of your workflows', nodeId: "w" }]);
    const deep = await check(runs("a"), { resolveWorkflow: resolverOf({ a: runs("gone", "inner") }) });
    expect(deep.issues.map((i) => [i.code, i.nodeId])).toEqual([["UNKNOWN_WORKFLOW", "w"]]);
    expect(deep.issues[0].message).toContain('"a" → "gone"');
  });

  test("a workflow that runs itself, directly or through others, is CYCLE", async () => {
    const self = await check(runs("me"), { selfId: "me", resolveWorkflow: resolverOf({ me: runs("me") }) });
    expect(self.issues.map((i) => [i.code, i.nodeId])).toEqual([["CYCLE", "w"]]);
    const loop = await check(runs("a"), { selfId: "me", resolveWorkflow: resolverOf({ a: runs("b"), b: runs("me"), me: runs("a") }) });
    expect(loop.issues.map((i) => i.code)).toEqual(["CYCLE"]);
    expect(loop.issues[0].message).toContain('"a" → "b" → "me"');
    // Without selfId (a graph not saved yet) a loop among the others is still found.
    expect(await codesOf(runs("a"), { resolveWorkflow: resolverOf({ a: runs("b"), b: runs("a") }) })).toEqual(["CYCLE"]);
  });

  test(`nesting: ${MAX_NESTING_DEPTH} levels below the root are fine, a 4th is NESTING_TOO_DEEP`, async () => {
    const workflows = { a: runs("b"), b: runs("c"), c: pdfFlow };
    const ok = await check(runs("a"), { resolveWorkflow: resolverOf(workflows) });
    expect(ok).toEqual({ ok: true, issues: [], steps: 2 });
    const deep = await check(runs("a"), { resolveWorkflow: resolverOf({ ...workflows, c: runs("d"), d: pdfFlow }) });
    expect(deep.issues.map((i) => [i.code, i.nodeId])).toEqual([["NESTING_TOO_DEEP", "w"]]);
    expect(deep.issues[0].message).toContain('"a" → "b" → "c" → "d"');
    expect(deep.steps).toBe(0);
  });

  test("an op.workflow node gives what its sub-workflow's exits give, for the inputs it gets", async () => {
    const resolveWorkflow = resolverOf({ pdf: pdfFlow, pass: passFlow });
    expect(await codesOf(chainOf(SRC, ["w", "op.workflow", { workflowId: "pdf" }], ["c", "op.cad.convert"]), { resolveWorkflow })).toEqual(["IO_MISMATCH"]);
    expect(await codesOf(chainOf(SRC, ["w", "op.workflow", { workflowId: "pdf" }], ["c", "op.pdf.split"]), { resolveWorkflow })).toEqual([]);
    const steps: NodeRow = ["f", "logic.filter", { formats: ["step"] }];
    expect(await codesOf(chainOf(SRC, steps, ["w", "op.workflow", { workflowId: "pass" }], ["c", "op.cad.convert"]), { resolveWorkflow })).toEqual([]);
    expect(await codesOf(chainOf(SRC, steps, ["w", "op.workflow", { workflowId: "pass" }], ["c", "op.pdf.compress"]), { resolveWorkflow })).toEqual(["IO_MISMATCH"]);
  });
});
