import { describe, expect, it } from "vitest";
import { addNode, connect, disconnect, idForType, moveNodes, parseGraphJson, removeNodes, setParams, titleOf, toGraphJson, tryParseGraphJson, uniqueId } from "./graph";
import { stepLabel } from "./rules";
import { CATALOG, deepFreeze, entry, graph } from "./testing/catalog";

/** A built-in template's graphJson as the server stores it (server/src/workflows/templates.ts): no positions, no edge ids. */
const TEMPLATE = JSON.stringify({
  nodes: [
    { id: "source", type: "source.upload", data: { type: "source.upload", params: {} } },
    { id: "glb", type: "op.bim.ifc-to-glb", data: { type: "op.bim.ifc-to-glb", params: {} } },
    { id: "properties", type: "op.bim.ifc-properties", data: { type: "op.bim.ifc-properties", params: { format: "json" } } },
    { id: "merge", type: "logic.merge", data: { type: "logic.merge", params: {} } },
    { id: "zip", type: "sink.zip", data: { type: "sink.zip", params: { name: "ifc-outputs.zip" } } },
  ],
  edges: [
    { source: "source", target: "glb" },
    { source: "source", target: "properties" },
    { source: "glb", target: "merge" },
    { source: "properties", target: "merge" },
    { source: "merge", target: "zip" },
  ],
});

describe("parseGraphJson and toGraphJson", () => {
  it("reads a template without positions: every node placed, every edge named", () => {
    const g = parseGraphJson(TEMPLATE);
    expect(g.nodes.map((n) => n.id)).toEqual(["source", "glb", "properties", "merge", "zip"]);
    for (const n of g.nodes) expect(Number.isFinite(n.position.x) && Number.isFinite(n.position.y)).toBe(true);
    expect(new Set(g.nodes.map((n) => `${n.position.x},${n.position.y}`)).size).toBe(5);
    expect(g.edges.map((e) => e.id)).toEqual(["source->glb", "source->properties", "glb->merge", "properties->merge", "merge->zip"]);
  });

  it("keeps stored positions and fields it does not know, on nodes, data, edges and the graph", () => {
    const stored = {
      viewport: { zoom: 1.5 },
      nodes: [
        { id: "a", type: "source.upload", position: { x: 12, y: 34 }, width: 220, data: { params: { sinceLastRun: true }, note: "mine" } },
        { id: "b", type: "sink.download", position: { x: 400, y: 34 }, data: { type: "sink.download" } },
      ],
      edges: [{ id: "e1", source: "a", target: "b", sourceHandle: "out" }],
    };
    const g = parseGraphJson(JSON.stringify(stored));
    expect(g.nodes[0]).toEqual({ id: "a", type: "source.upload", position: { x: 12, y: 34 }, width: 220, data: { type: "source.upload", params: { sinceLastRun: true }, note: "mine" } });
    const back = JSON.parse(toGraphJson(g));
    expect(back.viewport).toEqual({ zoom: 1.5 });
    expect(back.edges).toEqual([{ id: "e1", source: "a", target: "b", sourceHandle: "out" }]);
    expect(back.nodes[1].position).toEqual({ x: 400, y: 34 });
    // A round trip changes nothing more.
    expect(parseGraphJson(toGraphJson(g))).toEqual(g);
  });

  it("places only the nodes without a position, next to what leads into them", () => {
    const g = parseGraphJson(JSON.stringify({ nodes: [{ id: "a", type: "source.upload", position: { x: 100, y: 200 }, data: {} }, { id: "b", type: "sink.zip", data: {} }], edges: [{ source: "a", target: "b" }] }));
    expect(g.nodes[0].position).toEqual({ x: 100, y: 200 });
    expect(g.nodes[1].position.x).toBeGreaterThan(100);
    expect(g.nodes[1].position.y).toBe(200);
  });

  it("leaves xyflow's view state (selection, measurements) out of what is saved", () => {
    const g = graph([["a", "sink.zip"]]);
    const selected = { ...g, nodes: [{ ...g.nodes[0], selected: true, measured: { width: 1, height: 2 } }] };
    expect(JSON.parse(toGraphJson(selected)).nodes[0]).toEqual(g.nodes[0]);
  });

  it("refuses text that is not a graph, saying why", () => {
    expect(() => parseGraphJson("{")).toThrow(/graphJson is not valid JSON/);
    expect(tryParseGraphJson('{"nodes":[]}')).toEqual({ ok: false, reason: "A workflow graph needs a `nodes` list and an `edges` list" });
    expect(tryParseGraphJson('{"nodes":[{"id":"a/b","type":"sink.zip","data":{}}],"edges":[]}')).toEqual({ ok: false, reason: 'node "a/b": id must not contain "/"' });
    expect(tryParseGraphJson('{"nodes":[{"id":"a","type":"sink.zip"}],"edges":[]}')).toEqual({ ok: false, reason: 'node "a": data is missing' });
    expect(tryParseGraphJson('{"nodes":[],"edges":[{"source":"a"}]}')).toEqual({ ok: false, reason: "edges[0]: target is missing" });
  });
});

describe("graph edits", () => {
  const base = deepFreeze(
    graph(
      [
        ["source", "source.upload"],
        ["compress", "op.pdf.compress", { level: 6 }],
        ["zip", "sink.zip"],
      ],
      ["source>compress", "compress>zip"],
    ),
  );

  it("addNode: an id from the type, unique; params from the schema's defaults; placed when no position is given", () => {
    const one = addNode(base, entry("op.pdf.compress"));
    expect(one.id).toBe("compress-2");
    const added = one.graph.nodes.at(-1)!;
    expect(added).toMatchObject({ id: "compress-2", type: "op.pdf.compress", data: { type: "op.pdf.compress", params: { level: 6 } } });
    expect(base.nodes.some((n) => n.position.x === added.position.x && n.position.y === added.position.y)).toBe(false);
    const two = addNode(one.graph, entry("op.pdf.compress"), { x: 5, y: 6 });
    expect(two.id).toBe("compress-3");
    expect(two.graph.nodes.at(-1)!.position).toEqual({ x: 5, y: 6 });
    expect(addNode(base, entry("op.pdf.render-png")).id).toBe("render-png");
    expect(addNode(base, entry("sink.rename")).graph.nodes.at(-1)!.data.params).toEqual({ pattern: "{name}{ext}" });
    expect(addNode(base, entry("op.workflow")).graph.nodes.at(-1)!.data.params).toEqual({});
  });

  it("uniqueId and idForType", () => {
    expect(uniqueId("compress", new Set(["compress", "compress-2"]))).toBe("compress-3");
    expect(uniqueId("compress-2", new Set(["compress-2"]))).toBe("compress-3");
    expect(uniqueId("Some Step!", new Set())).toBe("some-step");
    expect(uniqueId("///", new Set())).toBe("step");
    expect(idForType(base, "trigger.manual")).toBe("manual");
  });

  it("removeNodes takes their edges along, and leaves the graph alone when none matches", () => {
    const g = removeNodes(base, ["compress"]);
    expect(g.nodes.map((n) => n.id)).toEqual(["source", "zip"]);
    expect(g.edges).toEqual([]);
    expect(removeNodes(base, ["nope"])).toBe(base);
    expect(removeNodes(base, ["source", "zip"]).edges).toEqual([]);
  });

  it("setParams replaces one node's params", () => {
    const g = setParams(base, "compress", { level: 9 });
    expect(g.nodes[1].data.params).toEqual({ level: 9 });
    expect(g.nodes[0]).toBe(base.nodes[0]);
    expect(setParams(base, "nope", {})).toBe(base);
  });

  it("moveNodes moves only the nodes named, and is a no-op for the same place", () => {
    const g = moveNodes(base, { zip: { x: 1, y: 2 } });
    expect(g.nodes[2].position).toEqual({ x: 1, y: 2 });
    expect(g.nodes[0]).toBe(base.nodes[0]);
    expect(moveNodes(base, { source: { ...base.nodes[0].position } })).toBe(base);
    expect(moveNodes(base, { toString: { x: 0, y: 0 } } as never)).toBe(base);
  });

  it("connect adds an allowed edge with a readable id; refuses with the reason; disconnect removes by id", () => {
    const g = removeNodes(base, []);
    const ok = connect(g, "source", "zip", CATALOG);
    expect(ok).toEqual({ ok: true, graph: { ...g, edges: [...g.edges, { id: "source->zip", source: "source", target: "zip" }] } });
    expect(connect(g, "zip", "source", CATALOG)).toEqual({ ok: false, reason: "Connecting ZIP to Uploaded files would make a loop: Uploaded files already leads to ZIP" });
    const back = disconnect(ok.ok ? ok.graph : g, "source->zip");
    expect(back).toEqual(g);
    expect(disconnect(g, "nope")).toBe(g);
  });

  it("titleOf and stepLabel: the catalog title, the type for an unknown kind", () => {
    expect(titleOf(base.nodes[1], CATALOG)).toBe("Compress PDF");
    expect(titleOf({ type: "op.gone" }, CATALOG)).toBe("op.gone");
    expect(stepLabel(base.nodes[1], base, CATALOG)).toBe("Compress PDF");
  });
});
