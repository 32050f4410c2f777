/**
 * Undo and redo as a stack of whole-graph snapshots (n8n's useHistory, without commands to
 * invert): one push per user action, however many nodes it touched (a paste, a delete of many,
 * a Tidy), a drag pushed once at its end. Snapshots share the nodes an edit did not touch, so
 * 200 of them cost little. Every function returns a new History and leaves its input alone.
 */
import type { EditorGraph } from "./types";

export interface History {
  readonly past: readonly EditorGraph[];
  readonly present: EditorGraph;
  readonly future: readonly EditorGraph[];
  /** The most undo steps kept; the oldest go first. */
  readonly limit: number;
}

/** A history whose present is `initial`, with nothing to undo or redo. */
export function createHistory(initial: EditorGraph, limit = 200): History {
  return { past: [], present: initial, future: [], limit: Math.max(1, Math.floor(limit)) };
}

/** Structural equality of JSON values, key order aside. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => sameJson(v, (b as unknown[])[i]));
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Records `next` as one step; a graph equal to the present one records nothing. Redo is lost, as anywhere. */
export function push(h: History, next: EditorGraph): History {
  if (sameJson(next, h.present)) return h;
  return { ...h, past: [...h.past, h.present].slice(-h.limit), present: next, future: [] };
}

export const canUndo = (h: History): boolean => h.past.length > 0;
export const canRedo = (h: History): boolean => h.future.length > 0;
export const current = (h: History): EditorGraph => h.present;

/** The graph before the last step (the same history when there is none). */
export function undo(h: History): History {
  if (!canUndo(h)) return h;
  return { ...h, past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] };
}

/** The step undone last, again (the same history when there is none). */
export function redo(h: History): History {
  if (!canRedo(h)) return h;
  return { ...h, past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) };
}
