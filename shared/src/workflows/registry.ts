/**
 * What the graph semantics needs to know of node kinds, asked through an interface: the server
 * answers from its node registry (TypeBox schemas, tool manifests), the web app from the
 * catalog GET /api/workflows/catalog gave it. shared/ itself knows no kind but the few it
 * treats apart (kinds.ts).
 */
import type { KindIo } from "./formats";

/** A node kind as planning and validation see it. */
export interface SemanticKind {
  type: string;
  io: KindIo & { minInputs?: number; maxInputs?: number };
  /** Tool steps a run is charged per node of this kind (op.<tool>: 1). */
  chargedSteps: number;
  /** The formats these (checked) params pick among its outputs, or undefined when they pick none. */
  producesFor?(params: Record<string, unknown>): readonly string[] | undefined;
}

/** One thing wrong with a node's params: where (`/glob`, `/` for the whole) and what. */
export interface ParamProblem {
  path: string;
  message: string;
}

export type ParamsCheck = { ok: true; params: Record<string, unknown> } | { ok: false; message: string; issues: ParamProblem[] };

export interface KindLookup {
  /** The kind of a node type, or undefined for a type no one registered. */
  kind(type: string): SemanticKind | undefined;
  /** A known kind's params checked against its schema, its defaults applied. */
  checkParams(type: string, params: unknown): ParamsCheck;
}
