/**
 * The editor's model of a workflow graph: the server's graphJson with a position on every node
 * and an id on every edge, as the canvas (React Flow) and the outline both need them. Fields
 * this model does not know (xyflow's, a future version's) ride along on nodes, edges and the
 * graph itself, so a round trip through the editor keeps them.
 */
import type { CatalogNode } from "@vektor/shared/schemas/workflow";

/** A point on the canvas (top-left corner of a node). */
export interface XY {
  x: number;
  y: number;
}

/** A node's `data`: its kind again (xyflow renders by it), its params and `io` narrowing. */
export interface EditorNodeData {
  type: string;
  params?: Record<string, unknown>;
  io?: { accepts?: string[]; produces?: string[] };
}

export interface EditorNode {
  id: string;
  type: string;
  position: XY;
  data: EditorNodeData;
}

export interface EditorEdge {
  id: string;
  source: string;
  target: string;
}

export interface EditorGraph {
  nodes: EditorNode[];
  edges: EditorEdge[];
}

/** One node kind as GET /api/workflows/catalog lists it. */
export type CatalogEntry = CatalogNode;

/** An outcome that either holds a value or says, in plain words, why not. */
export type Outcome<T extends object> = ({ ok: true } & T) | { ok: false; reason: string };
