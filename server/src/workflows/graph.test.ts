import { describe, expect, test } from "bun:test";
import { cycles, parseGraph, topoOrder } from "./graph";

const codes = (json: string) => {
  const r = parseGraph(json);
  return r.ok ? [] : r.issues.map((i) => i.code);
};

describe("parseGraph", () => {
  test("reads a graph and keeps the editor's extra fields", () => {
    const json = JSON.stringify({
      nodes: [{ id: "a", type: "source.upload", position: { x: 1, y: 2 }, selected: true, data: { type: "source.upload", label: "In" } }],
      edges: [],
      viewport: { zoom: 1 },
    });
    const r = parseGraph(json);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.graph.nodes[0]).toMatchObject({ id: "a", position: { x: 1, y: 2 } });
  });

  test("tolerates a node without data.type and an edge with an id and handles", () => {
    const r = parseGraph(JSON.stringify({ nodes: [{ id: "a", type: "source.upload", data: {} }, { id: "b", type: "sink.download", data: {} }], edges: [{ id: "e", source: "a", target: "b", sourceHandle: null }] }));
    expect(r.ok).toBe(true);
  });

  test("not JSON, not an object, or without arrays: INVALID_GRAPH", () => {
    expect(codes("{nodes:")).toEqual(["INVALID_GRAPH"]);
    expect(codes("[]")).toEqual(["INVALID_GRAPH"]);
    expect(codes("null")).toEqual(["INVALID_GRAPH"]);
    expect(codes('"x"')).toEqual(["INVALID_GRAPH"]);
    expect(codes('{"nodes":[]}')).toEqual(["INVALID_GRAPH"]);
    expect(codes('{"nodes":{},"edges":[]}')).toEqual(["INVALID_GRAPH"]);
  });

  test("malformed nodes and edges: one INVALID_GRAPH each, naming the node and the field", () => {
    const r = parseGraph(
      JSON.stringify({
        nodes: [{ id: "a", type: "source.upload" }, { id: 3, type: "x", data: {} }, { id: "b/c", type: "sink.zip", data: {} }, { id: "d", type: "sink.zip", data: { params: [1] } }],
        edges: [{ source: "a" }],
      }),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.code)).toEqual(["INVALID_GRAPH", "INVALID_GRAPH", "INVALID_GRAPH", "INVALID_GRAPH", "INVALID_GRAPH"]);
    expect(r.issues[0]).toMatchObject({ nodeId: "a" });
    expect(r.issues[0].message).toBe(`node "a": data is missing`);
    expect(r.issues[1].message).toStartWith("nodes[1]");
    expect(r.issues[2].nodeId).toBe("b/c");
    expect(r.issues[3].message).toBe(`node "d": data.params: Expected object`);
    expect(r.issues[2].message).toBe(`node "b/c": id must not contain "/"`);
    expect(r.issues[4].message).toStartWith("edges[0]");
  });

  test("data.io must hold lists of format ids", () => {
    expect(codes(JSON.stringify({ nodes: [{ id: "a", type: "source.upload", data: { io: { accepts: "pdf" } } }], edges: [] }))).toEqual(["INVALID_GRAPH"]);
  });

  test("many malformed nodes are summarised", () => {
    const nodes = Array.from({ length: 50 }, () => ({ id: 1 }));
    const r = parseGraph(JSON.stringify({ nodes, edges: [] }));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.issues).toHaveLength(21);
      expect(r.issues[20].message).toContain("30 more");
    }
  });

  test("more than 500 nodes or 2000 edges: TOO_MANY_NODES", () => {
    const node = (i: number) => ({ id: `n${i}`, type: "logic.merge", data: {} });
    expect(codes(JSON.stringify({ nodes: Array.from({ length: 500 }, (_, i) => node(i)), edges: [] }))).toEqual([]);
    expect(codes(JSON.stringify({ nodes: Array.from({ length: 501 }, (_, i) => node(i)), edges: [] }))).toEqual(["TOO_MANY_NODES"]);
    expect(codes(JSON.stringify({ nodes: [], edges: Array.from({ length: 2001 }, () => ({ source: "a", target: "b" })) }))).toEqual(["TOO_MANY_NODES"]);
  });
});

describe("topoOrder and cycles", () => {
  test("orders sources before targets, ties in the given order", () => {
    expect(topoOrder(["c", "b", "a"], [{ source: "a", target: "c" }])).toEqual(["b", "a", "c"]);
    expect(topoOrder(["a", "b"], [])).toEqual(["a", "b"]);
  });

  test("a loop has no order; cycles names each loop once", () => {
    const links = [
      { source: "a", target: "b" },
      { source: "b", target: "a" },
      { source: "c", target: "d" },
      { source: "d", target: "e" },
      { source: "e", target: "c" },
      { source: "e", target: "f" },
    ];
    expect(topoOrder(["a", "b", "c", "d", "e", "f"], links)).toBeNull();
    expect(cycles(["a", "b", "c", "d", "e", "f"], links)).toEqual([["a", "b"], ["c", "d", "e"]]);
  });
});
