/**
 * What changed between two versions of a graph, for the Versions panel's compare ("what
 * changed the day it started failing"): steps added and removed, params, kinds and formats
 * changed per step, connections added and removed. Positions are not a change: moving a step
 * does not change what a run does. Edges are compared by source → target, since their ids are
 * only names (the server's may have none).
 */
import { sameJson } from "./history";
import type { EditorEdge, EditorGraph, EditorNode } from "./types";

type Params = Record<string, unknown>;
type Io = EditorNode["data"]["io"];

export interface GraphDiff {
  nodesAdded: EditorNode[];
  nodesRemoved: EditorNode[];
  paramsChanged: { id: string; before: Params; after: Params; keys: string[] }[];
  typeChanged: { id: string; before: string; after: string }[];
  /** `data.io` narrowing changed (it changes what a step takes or gives). */
  ioChanged: { id: string; before: Io; after: Io }[];
  edgesAdded: EditorEdge[];
  edgesRemoved: EditorEdge[];
}

/** The keys whose values differ (a key set to undefined counts as absent), sorted. */
function changedKeys(before: Params, after: Params): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => !sameJson(before[k], after[k])).sort();
}

const edgeKey = (e: EditorEdge) => `${e.source}\n${e.target}`;

/** Edges of `a` whose source → target is not in `b` (each pair once). */
function edgesNotIn(a: readonly EditorEdge[], b: readonly EditorEdge[]): EditorEdge[] {
  const inB = new Set(b.map(edgeKey));
  const seen = new Set<string>();
  return a.filter((e) => {
    const key = edgeKey(e);
    if (inB.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The changes that turn `before` into `after`, in `after`'s order (removals in `before`'s). */
export function diffGraphs(before: EditorGraph, after: EditorGraph): GraphDiff {
  const old = new Map(before.nodes.map((n) => [n.id, n]));
  const now = new Set(after.nodes.map((n) => n.id));
  const diff: GraphDiff = { nodesAdded: [], nodesRemoved: before.nodes.filter((n) => !now.has(n.id)), paramsChanged: [], typeChanged: [], ioChanged: [], edgesAdded: edgesNotIn(after.edges, before.edges), edgesRemoved: edgesNotIn(before.edges, after.edges) };
  for (const node of after.nodes) {
    const was = old.get(node.id);
    if (!was) {
      diff.nodesAdded.push(node);
      continue;
    }
    // A step whose kind changed is another step: its params are not compared key by key.
    if (was.type !== node.type) {
      diff.typeChanged.push({ id: node.id, before: was.type, after: node.type });
      continue;
    }
    const keys = changedKeys(was.data.params ?? {}, node.data.params ?? {});
    if (keys.length) diff.paramsChanged.push({ id: node.id, before: was.data.params ?? {}, after: node.data.params ?? {}, keys });
    if (!sameJson(was.data.io ?? {}, node.data.io ?? {})) diff.ioChanged.push({ id: node.id, before: was.data.io, after: node.data.io });
  }
  return diff;
}

/** Whether the two graphs do the same thing (only positions or edge ids differ). */
export function isEmptyDiff(d: GraphDiff): boolean {
  return [d.nodesAdded, d.nodesRemoved, d.paramsChanged, d.typeChanged, d.ioChanged, d.edgesAdded, d.edgesRemoved].every((list) => list.length === 0);
}
