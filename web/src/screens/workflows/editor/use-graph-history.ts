/**
 * The editor's graph as an undo stack (the model's history.ts): every user action is one entry,
 * however many nodes it touches. Kept in a ref so an action reads the graph synchronously (a
 * refused connection answers its reason at once) and re-rendered on change.
 */
import { useCallback, useMemo, useReducer, useRef } from "react";
import { canRedo, canUndo, createHistory, current, push, redo, undo, type EditorGraph } from "../../../workflows/model";

export interface GraphHistory {
  graph: EditorGraph;
  canUndo: boolean;
  canRedo: boolean;
  /** Replaces the graph with `fn(graph)` as one undo step; null or the same graph changes nothing. */
  edit: (fn: (g: EditorGraph) => EditorGraph | null | undefined) => boolean;
  /** The latest graph, for handlers that must not close over a stale one. */
  latest: () => EditorGraph;
  undo: () => boolean;
  redo: () => boolean;
}

export function useGraphHistory(initial: EditorGraph): GraphHistory {
  const ref = useRef<ReturnType<typeof createHistory> | null>(null);
  if (ref.current === null) ref.current = createHistory(initial);
  const [version, bump] = useReducer((n: number) => n + 1, 0);

  const latest = useCallback(() => current(ref.current!), []);
  const edit = useCallback((fn: (g: EditorGraph) => EditorGraph | null | undefined) => {
    const before = current(ref.current!);
    const next = fn(before);
    if (!next || next === before) return false;
    const pushed = push(ref.current!, next);
    if (pushed === ref.current) return false;
    ref.current = pushed;
    bump();
    return true;
  }, []);
  const step = useCallback((can: typeof canUndo, move: typeof undo) => {
    if (!can(ref.current!)) return false;
    ref.current = move(ref.current!);
    bump();
    return true;
  }, []);
  const doUndo = useCallback(() => step(canUndo, undo), [step]);
  const doRedo = useCallback(() => step(canRedo, redo), [step]);

  return useMemo(() => {
    const h = ref.current!;
    return { graph: current(h), canUndo: canUndo(h), canRedo: canRedo(h), edit, latest, undo: doUndo, redo: doRedo };
    // `version` is what changes when the history does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version, edit, latest, doUndo, doRedo]);
}
