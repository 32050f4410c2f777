import { describe, expect, test } from "bun:test";
import { ALL_FORMATS, chosenFormats, describeFormats, flowFormats, flowFormatsSync, pickedFormats, type FlowGraph, type FlowProblem } from "./formats";
import { leadsTo } from "./order";

const chain = (nodes: FlowGraph["nodes"], pairs: [string, string][]): FlowGraph => ({ nodes, links: pairs.map(([source, target]) => ({ source, target })), order: nodes.map((n) => n.id) });
const source = { id: "s", type: "source.upload", io: { accepts: "any" as const, produces: ["pdf", "png"] } };
const pass = (id: string) => ({ id, type: "logic.merge", io: { accepts: "any" as const, produces: "inputs" as const } });
const compress = { id: "c", type: "op.pdf.compress", io: { accepts: ["pdf"], produces: ["pdf"] } };

describe("shared format flow", () => {
  test("flows formats through pass-through nodes and reports an edge the target cannot take", () => {
    const problems: FlowProblem[] = [];
    const png = { id: "p", type: "logic.filter", io: { accepts: "any" as const, produces: "inputs" as const }, picked: ["png"] };
    const out = flowFormatsSync(chain([source, png, pass("m"), compress], [["s", "p"], ["p", "m"], ["m", "c"]]), { seed: new Set(), nested: false, report: (p) => problems.push(p) });
    expect([...out.formats.get("m")!]).toEqual(["png"]);
    expect(problems.map((p) => p.code === "IO_MISMATCH" && `${p.source.id}>${p.node.id}: ${describeFormats(p.accepts)} / ${describeFormats(p.produces)}`)).toEqual(["m>c: pdf / png"]);
  });

  test("a null seed leaves an unconnected pass-through node unknown, not judged", () => {
    const problems: FlowProblem[] = [];
    const out = flowFormatsSync(chain([pass("m"), compress], [["m", "c"]]), { seed: () => null, nested: false, report: (p) => problems.push(p) });
    expect(out.unsure.has("m")).toBe(true);
    expect(problems).toEqual([]);
    // With an empty seed (a run's top level) it gives nothing, which the target cannot take.
    const strict = flowFormatsSync(chain([pass("m"), compress], [["m", "c"]]), { seed: new Set(), nested: false, report: (p) => problems.push(p) });
    expect(strict.formats.get("m")!.size).toBe(0);
    expect(problems).toHaveLength(1);
  });

  test("asks its caller what a sub-workflow gives, and goes on with the answer", () => {
    const sub = { id: "w", type: "op.workflow", io: { accepts: "any" as const, produces: "inputs" as const }, runs: "wf_1" };
    const flow = flowFormats(chain([source, sub, compress], [["s", "w"], ["w", "c"]]), { seed: new Set(), nested: false });
    const ask = flow.next();
    expect(ask.done).toBe(false);
    expect(ask.value).toEqual({ workflowId: "wf_1", given: new Set(["pdf", "png"]) });
    const end = flow.next(new Set(["png"]));
    expect(end.done && [...end.value.formats.get("w")!]).toEqual(["png"]);
  });

  test("inside a sub-workflow, source.upload passes on what it was given", () => {
    const out = flowFormatsSync(chain([source], []), { seed: new Set(["las"]), nested: true });
    expect([...out.formats.get("s")!]).toEqual(["las"]);
  });

  test("data.io outside the kind's own formats is reported and ignored", () => {
    const problems: FlowProblem[] = [];
    const narrowed = { ...compress, narrow: { produces: ["png"] } };
    const out = flowFormatsSync(chain([source, narrowed], [["s", "c"]]), { seed: new Set(), nested: false, report: (p) => problems.push(p) });
    expect([...out.formats.get("c")!]).toEqual(["pdf"]);
    expect(problems).toMatchObject([{ code: "IO_OUTSIDE", side: "produces", format: "png" }]);
  });

  test("chosenFormats and pickedFormats read choice params and a pass-through's formats", () => {
    const schema = { properties: { to: { anyOf: [{ const: "gpkg" }, { const: "kml" }] }, title: { type: "string" } } };
    expect(chosenFormats(schema, ["gpkg", "kml"], { to: "kml", title: "gpkg" })).toEqual(["kml"]);
    expect(chosenFormats(schema, ["gpkg", "kml"], { title: "gpkg" })).toBeUndefined();
    expect(pickedFormats({ io: { accepts: "any", produces: "inputs" }, params: { properties: { formats: {} } } }, { formats: ["pdf"] })).toEqual(["pdf"]);
    expect(pickedFormats({ io: { accepts: "any", produces: "inputs" }, params: { properties: {} } }, { formats: ["pdf"] })).toBeUndefined();
  });

  test("describeFormats", () => {
    expect(describeFormats(new Set())).toBe("no files");
    expect(describeFormats(ALL_FORMATS)).toBe("any format");
    expect(describeFormats(new Set(["a", "b", "c", "d", "e", "f", "g", "h", "i"]))).toBe("a, b, c, d, e, f, g, h, ...");
  });
});

describe("leadsTo", () => {
  test("follows links one or more steps, never a node to itself without a loop", () => {
    const links = [{ source: "a", target: "b" }, { source: "b", target: "c" }, { source: "x", target: "x" }];
    expect(leadsTo(links, "a", "c")).toBe(true);
    expect(leadsTo(links, "c", "a")).toBe(false);
    expect(leadsTo(links, "a", "a")).toBe(false);
    expect(leadsTo(links, "x", "x")).toBe(true);
  });
});
