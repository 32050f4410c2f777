import { describe, expect, test } from "vitest";
import type { Graph } from "@vektor/shared/schemas/workflow";
import { graphUpTo } from "./up-to";

const node = (id: string, type = `op.${id}`) => ({ id, type, data: { params: { of: id } } });
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });

// upload -> compress -> zip -> download, with a side branch compress -> split, and a second
// source (pick) merged into zip.
const graph: Graph = {
  nodes: [node("upload", "source.upload"), node("compress"), node("split"), node("pick", "source.upload"), node("zip", "sink.zip"), node("download", "sink.download")],
  edges: [edge("upload", "compress"), edge("compress", "split"), edge("compress", "zip"), edge("pick", "zip"), edge("zip", "download")],
};

const ids = (g: Graph) => [g.nodes.map((n) => n.id), g.edges.map((e) => e.id)];

describe("graphUpTo", () => {
  test("keeps the step and every step with a path to it, with the edges among them, in the graph's order", () => {
    expect(ids(graphUpTo(graph, "zip"))).toEqual([
      ["upload", "compress", "pick", "zip"],
      ["upload-compress", "compress-zip", "pick-zip"],
    ]);
  });

  test("leaves out the branches after the step and beside it", () => {
    expect(ids(graphUpTo(graph, "compress"))).toEqual([["upload", "compress"], ["upload-compress"]]);
    expect(ids(graphUpTo(graph, "split"))).toEqual([
      ["upload", "compress", "split"],
      ["upload-compress", "compress-split"],
    ]);
  });

  test("the whole graph up to its last step; a first step alone; an unknown step gives nothing", () => {
    expect(ids(graphUpTo(graph, "download"))[0]).toEqual(["upload", "compress", "pick", "zip", "download"]);
    expect(ids(graphUpTo(graph, "pick"))).toEqual([["pick"], []]);
    expect(ids(graphUpTo(graph, "gone"))).toEqual([[], []]);
  });

  test("keeps each node as it is (params and all) and stops on a cycle", () => {
    const cyclic: Graph = { nodes: [node("a"), node("b")], edges: [edge("a", "b"), edge("b", "a")] };
    expect(graphUpTo(cyclic, "b")).toEqual(cyclic);
    expect(graphUpTo(graph, "compress").nodes[1]).toBe(graph.nodes[1]);
  });
});
