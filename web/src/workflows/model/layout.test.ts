import { describe, expect, it } from "vitest";
import { GAP_X, NODE_HEIGHT, NODE_WIDTH, placeMissing, positioned, tidy } from "./layout";
import type { LooseGraph } from "./shape";
import { deepFreeze, graph } from "./testing/catalog";
import type { EditorGraph } from "./types";

const boxesOverlap = (g: EditorGraph) =>
  g.nodes.some((a, i) => g.nodes.some((b, j) => i < j && Math.abs(a.position.x - b.position.x) < NODE_WIDTH && Math.abs(a.position.y - b.position.y) < NODE_HEIGHT));
const at = (g: EditorGraph, id: string) => g.nodes.find((n) => n.id === id)!.position;

/** The IFC template's diamond plus a loose step and a second source. */
const diamond = deepFreeze(
  graph(
    [
      ["source", "source.upload"],
      ["glb", "op.bim.ifc-to-glb"],
      ["properties", "op.bim.ifc-properties"],
      ["merge", "logic.merge"],
      ["zip", "sink.zip"],
      ["loose", "logic.approval"],
    ],
    ["source>glb", "source>properties", "glb>merge", "properties>merge", "merge>zip"],
  ),
);

describe("tidy", () => {
  it("gives every node a distinct position, boxes apart", () => {
    const g = tidy(diamond);
    expect(new Set(g.nodes.map((n) => `${n.position.x},${n.position.y}`)).size).toBe(g.nodes.length);
    expect(boxesOverlap(g)).toBe(false);
  });

  it("lays out left to right: every edge goes right, a column per depth", () => {
    const g = tidy(diamond);
    for (const e of g.edges) expect(at(g, e.target).x).toBeGreaterThanOrEqual(at(g, e.source).x + NODE_WIDTH + GAP_X);
    expect(at(g, "glb").x).toBe(at(g, "properties").x);
  });

  it("changes nothing but positions, and copes with no nodes, loops and edges to nowhere", () => {
    const g = tidy(diamond);
    expect(g.nodes.map(({ position: _, ...rest }) => rest)).toEqual(diamond.nodes.map(({ position: _, ...rest }) => rest));
    expect(g.edges).toBe(diamond.edges);
    expect(tidy({ nodes: [], edges: [] })).toEqual({ nodes: [], edges: [] });
    const odd = graph([["a", "logic.merge"], ["b", "logic.merge"]], ["a>b", "b>a", "a>a", "a>gone"]);
    expect(boxesOverlap(tidy(odd))).toBe(false);
  });

  it("lays out 300 steps quickly", () => {
    const nodes = Array.from({ length: 300 }, (_, i) => [`n${i}`, "logic.merge"] as [string, string]);
    const edges = nodes.slice(1).map((_, i) => `n${Math.floor(i / 3)}>n${i + 1}`);
    const started = performance.now();
    const g = tidy(graph(nodes, edges));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(boxesOverlap(g)).toBe(false);
  });
});

describe("placeMissing", () => {
  const loose = (g: EditorGraph, without: string[]): LooseGraph => ({ ...g, nodes: g.nodes.map(({ position, ...n }) => (without.includes(n.id) ? n : { ...n, position })) });

  it("keeps every existing position and places only the rest", () => {
    const g = placeMissing(deepFreeze(loose(diamond, ["merge", "zip", "loose"])));
    for (const id of ["source", "glb", "properties"]) expect(at(g, id)).toEqual(at(diamond, id));
    expect(boxesOverlap(g)).toBe(false);
  });

  it("puts a step right of what leads into it, a chain left to right", () => {
    const g = placeMissing(loose(diamond, ["merge", "zip"]));
    expect(at(g, "merge").x).toBe(Math.max(at(diamond, "glb").x, at(diamond, "properties").x) + NODE_WIDTH + GAP_X);
    expect(at(g, "zip").x).toBe(at(g, "merge").x + NODE_WIDTH + GAP_X);
  });

  it("puts a step nothing leads into below the others", () => {
    const g = placeMissing(loose(diamond, ["loose"]));
    const lowest = Math.max(...diamond.nodes.filter((n) => n.id !== "loose").map((n) => n.position.y));
    expect(at(g, "loose").y).toBeGreaterThan(lowest);
  });

  it("returns the same graph when every node has a position", () => {
    expect(placeMissing(diamond)).toBe(diamond);
  });

  it("positioned: a graph with no positions at all is laid out whole (tidy), else only the missing are placed", () => {
    const none = loose(diamond, diamond.nodes.map((n) => n.id));
    expect(positioned(none)).toEqual(tidy(none));
    const some = loose(diamond, ["zip"]);
    expect(at(positioned(some), "source")).toEqual(at(diamond, "source"));
  });
});
