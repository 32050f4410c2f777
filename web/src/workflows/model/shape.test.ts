import { describe, expect, it } from "vitest";
import { MAX_GRAPH_EDGES, MAX_GRAPH_JSON as SERVER_MAX_JSON, MAX_GRAPH_NODES } from "@vektor/shared/schemas/workflow";
import { edgeId, MAX_EDGES, MAX_GRAPH_JSON, MAX_NODES, readGraphText } from "./shape";

describe("graph shape", () => {
  it("has the server's limits", () => {
    expect([MAX_NODES, MAX_EDGES, MAX_GRAPH_JSON]).toEqual([MAX_GRAPH_NODES, MAX_GRAPH_EDGES, SERVER_MAX_JSON]);
  });

  it("gives edges without an id, or with one taken, an id of their own", () => {
    const read = readGraphText(JSON.stringify({ nodes: [], edges: [{ source: "a", target: "b" }, { source: "a", target: "b", id: "a->b" }, { source: "b", target: "c", id: "x" }] }), "it");
    expect(read.ok && read.graph.edges.map((e) => e.id)).toEqual(["a->b", "a->b#2", "x"]);
    expect(edgeId("a", "b", new Set(["a->b", "a->b#2"]))).toBe("a->b#3");
  });

  it("drops a malformed position so the node is placed again", () => {
    const read = readGraphText(JSON.stringify({ nodes: [{ id: "a", type: "logic.merge", position: { x: "1" }, data: {} }], edges: [] }), "it");
    expect(read.ok && read.graph.nodes[0]).toEqual({ id: "a", type: "logic.merge", data: { type: "logic.merge" } });
  });

  it("refuses text over the server's length", () => {
    expect(readGraphText(" ".repeat(MAX_GRAPH_JSON + 1), "The file")).toEqual({ ok: false, reason: "The file is longer than 1,000,000 characters" });
  });
});
