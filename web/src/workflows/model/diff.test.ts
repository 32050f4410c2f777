import { describe, expect, it } from "vitest";
import { diffGraphs, isEmptyDiff } from "./diff";
import { addNode, moveNodes, parseGraphJson, removeNodes, setParams, toGraphJson } from "./graph";
import { deepFreeze, entry, graph } from "./testing/catalog";

const v1 = deepFreeze(
  graph(
    [
      ["source", "source.upload"],
      ["compress", "op.pdf.compress", { level: 6 }],
      ["render", "op.pdf.render-png", { dpi: 96, pages: "1" }],
      ["zip", "sink.zip", { name: "out.zip" }],
    ],
    ["source>compress", "compress>zip", "source>render", "render>zip"],
  ),
);

describe("diffGraphs", () => {
  it("finds nothing between a graph and itself, its JSON round trip, or a moved copy", () => {
    expect(isEmptyDiff(diffGraphs(v1, v1))).toBe(true);
    expect(isEmptyDiff(diffGraphs(v1, parseGraphJson(toGraphJson(v1))))).toBe(true);
    expect(isEmptyDiff(diffGraphs(v1, moveNodes(v1, { zip: { x: -50, y: 900 } })))).toBe(true);
  });

  it("ignores edge ids: edges are compared by source → target", () => {
    const renamed = { ...v1, edges: v1.edges.map((e, i) => ({ ...e, id: `e${i}` })) };
    expect(isEmptyDiff(diffGraphs(v1, renamed))).toBe(true);
  });

  it("lists steps added and removed, with the edges that came and went", () => {
    const added = addNode(removeNodes(v1, ["render"]), entry("sink.download")).graph;
    const withEdge = { ...added, edges: [...added.edges, { id: "x", source: "compress", target: "download" }] };
    const d = diffGraphs(v1, withEdge);
    expect(d.nodesAdded.map((n) => n.id)).toEqual(["download"]);
    expect(d.nodesRemoved.map((n) => n.id)).toEqual(["render"]);
    expect(d.edgesAdded.map((e) => `${e.source}>${e.target}`)).toEqual(["compress>download"]);
    expect(d.edgesRemoved.map((e) => `${e.source}>${e.target}`)).toEqual(["source>render", "render>zip"]);
    expect(d.paramsChanged).toEqual([]);
    expect(isEmptyDiff(d)).toBe(false);
  });

  it("lists params changed with the keys that changed, added or removed", () => {
    const v2 = setParams(setParams(v1, "compress", { level: 9 }), "render", { dpi: 96, alpha: true });
    expect(diffGraphs(v1, v2).paramsChanged).toEqual([
      { id: "compress", before: { level: 6 }, after: { level: 9 }, keys: ["level"] },
      { id: "render", before: { dpi: 96, pages: "1" }, after: { dpi: 96, alpha: true }, keys: ["alpha", "pages"] },
    ]);
    // Absent params and {} are the same.
    const bare = { ...v1, nodes: v1.nodes.map((n) => (n.id === "source" ? { ...n, data: { type: n.type } } : n)) };
    expect(isEmptyDiff(diffGraphs(bare, setParams(bare, "source", {})))).toBe(true);
  });

  it("reports a step whose kind changed as such, not as params", () => {
    const v2 = { ...v1, nodes: v1.nodes.map((n) => (n.id === "compress" ? { ...n, type: "op.pdf.rotate", data: { type: "op.pdf.rotate", params: { degrees: 90 } } } : n)) };
    const d = diffGraphs(v1, v2);
    expect(d.typeChanged).toEqual([{ id: "compress", before: "op.pdf.compress", after: "op.pdf.rotate" }]);
    expect(d.paramsChanged).toEqual([]);
  });

  it("reports data.io narrowing changes", () => {
    const v2 = { ...v1, nodes: v1.nodes.map((n) => (n.id === "source" ? { ...n, data: { ...n.data, io: { produces: ["pdf"] } } } : n)) };
    expect(diffGraphs(v1, v2).ioChanged).toEqual([{ id: "source", before: undefined, after: { produces: ["pdf"] } }]);
  });
});
