/**
 * The workflow editor's model: the graph, its edits, the connection rules, the undo stack,
 * layout, version diff, clipboard and palette. Plain functions over plain values, no React:
 * the canvas and the outline are two views of it.
 */
export * from "./types";
export { defaultParams, effectiveParams, entryOf } from "./catalog";
export * from "./graph";
export * from "./rules";
export * from "./history";
export * from "./layout";
export * from "./diff";
export * from "./clipboard";
export * from "./palette";
export { graphUpTo } from "./up-to";
export { edgeId, MAX_EDGES, MAX_GRAPH_JSON, MAX_NODES, readGraphText, type LooseGraph, type LooseNode } from "./shape";
