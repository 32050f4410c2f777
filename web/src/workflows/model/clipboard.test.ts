import { describe, expect, it } from "vitest";
import { copyNodes, exportGraph, importGraph, pasteNodes } from "./clipboard";
import { MAX_NODES } from "./shape";
import { deepFreeze, graph } from "./testing/catalog";

const g = deepFreeze(
  graph(
    [
      ["source", "source.upload"],
      ["compress", "op.pdf.compress", { level: 6 }],
      ["zip", "sink.zip"],
    ],
    ["source>compress", "compress>zip"],
  ),
);

describe("copy and paste", () => {
  it("copies the nodes asked for and only the edges between them, as workflow JSON", () => {
    const copied = JSON.parse(copyNodes(g, ["compress", "zip"]));
    expect(copied.nodes.map((n: { id: string }) => n.id)).toEqual(["compress", "zip"]);
    expect(copied.edges).toEqual([{ id: "compress->zip", source: "compress", target: "zip" }]);
  });

  it("pastes with ids remapped to unique ones, edges following them, positions offset", () => {
    const out = pasteNodes(g, copyNodes(g, ["compress", "zip"]));
    if (!out.ok) throw new Error(out.reason);
    expect(out.ids).toEqual(["compress-2", "zip-2"]);
    const pasted = out.graph.nodes.slice(3);
    expect(pasted.map((n) => n.position)).toEqual([
      { x: g.nodes[1].position.x + 40, y: g.nodes[1].position.y + 40 },
      { x: g.nodes[2].position.x + 40, y: g.nodes[2].position.y + 40 },
    ]);
    expect(pasted[0].data).toEqual({ type: "op.pdf.compress", params: { level: 6 } });
    expect(out.graph.edges.slice(2)).toEqual([{ id: "compress-2->zip-2", source: "compress-2", target: "zip-2" }]);
    // The graph it pasted into is still all there.
    expect(out.graph.nodes.slice(0, 3)).toEqual(g.nodes);
    expect(out.graph.edges.slice(0, 2)).toEqual(g.edges);
  });

  it("keeps ids that are free, and pastes twice without a clash", () => {
    const text = copyNodes(g, ["compress"]);
    const empty = pasteNodes({ nodes: [], edges: [] }, text, { x: 0, y: 0 });
    expect(empty.ok && empty.ids).toEqual(["compress"]);
    const once = pasteNodes(g, text);
    const twice = once.ok ? pasteNodes(once.graph, text) : once;
    expect(twice.ok && twice.ids).toEqual(["compress-3"]);
  });

  it("places pasted steps without a position, and drops edges to steps not pasted", () => {
    const text = JSON.stringify({ nodes: [{ id: "a", type: "logic.merge", data: {} }], edges: [{ source: "a", target: "elsewhere" }, { source: "a", target: "a" }] });
    const out = pasteNodes(g, text);
    if (!out.ok) throw new Error(out.reason);
    expect(out.graph.nodes.at(-1)!.position).toBeDefined();
    expect(out.graph.edges).toHaveLength(g.edges.length + 1);
  });

  it("refuses what is not workflow JSON, saying why", () => {
    expect(pasteNodes(g, "hello")).toMatchObject({ ok: false, reason: expect.stringMatching(/^The pasted text is not valid JSON/) });
    expect(pasteNodes(g, "[1,2]")).toEqual({ ok: false, reason: "A workflow graph is an object { nodes, edges }" });
    expect(pasteNodes(g, '{"nodes":[{"id":"a"}],"edges":[]}')).toEqual({ ok: false, reason: 'node "a": type is missing' });
    expect(pasteNodes(g, '{"nodes":[{"id":"a","type":"x","data":{"params":[]}}],"edges":[]}')).toEqual({ ok: false, reason: 'node "a": data.params must be an object' });
    expect(pasteNodes(g, '{"nodes":[],"edges":[]}')).toEqual({ ok: false, reason: "The pasted text has no steps" });
    expect(pasteNodes(g, "[".repeat(100))).toMatchObject({ ok: false, reason: expect.stringMatching(/nests arrays and objects more than 64 levels/) });
  });

  it("refuses a paste past the server's limit of steps", () => {
    const many = graph(Array.from({ length: MAX_NODES - 1 }, (_, i) => [`n${i}`, "logic.merge"] as [string, string]));
    expect(pasteNodes(many, copyNodes(g, ["compress", "zip"]))).toEqual({ ok: false, reason: "Pasting 2 steps and 1 connections would pass the limit of 500 steps and 2000 connections" });
  });
});

describe("export and import", () => {
  it("round-trips the whole graph", () => {
    const out = importGraph(exportGraph(g));
    expect(out).toEqual({ ok: true, graph: g });
  });

  it("refuses a graph over the server's limits or of the wrong shape", () => {
    const big = JSON.stringify({ nodes: Array.from({ length: MAX_NODES + 1 }, (_, i) => ({ id: `n${i}`, type: "logic.merge", data: {} })), edges: [] });
    expect(importGraph(big)).toEqual({ ok: false, reason: "The graph has 501 steps and 0 connections; at most 500 steps and 2000 connections are allowed" });
    expect(importGraph('{"nodes":[{"id":"a","type":"x","data":{"io":{"accepts":"pdf"}}}],"edges":[]}')).toEqual({ ok: false, reason: 'node "a": data.io.accepts must be a list of format ids' });
    expect(importGraph('{"nodes":[],"edges":[{"source":"a","target":"b","id":7}]}')).toEqual({ ok: false, reason: "edges[0]: id must be a text of at most 200 characters" });
    expect(importGraph('{"nodes":[5],"edges":[]}')).toEqual({ ok: false, reason: "nodes[0]: is not an object" });
  });
});
