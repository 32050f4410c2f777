/**
 * The run's graph, read-only: the version's steps drawn by the editor's StepNode, each coloured
 * by its step's status (its line under the title says the word), edges as saved. Nothing can be
 * moved, connected or deleted. Its own chunk with React Flow (assets/editor/), loaded after the
 * page's text.
 */
import { Background, Controls, ReactFlow, type Edge, type ReactFlowInstance } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import "../editor/editor.css";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { parseGraphJson, titleOf, type CatalogEntry } from "../../../workflows/model";
import { NODE_TYPES, type StepFlowNode } from "../editor/StepNode";
import { toneOf } from "./run-view";

const FIT_VIEW = { maxZoom: 1.2 };

export interface RunGraphProps {
  graphJson: string;
  catalog: CatalogEntry[];
  /** Each top-level node's status word (absent: the run has no step for it). */
  words: ReadonlyMap<string, string>;
}

export default function RunGraph({ graphJson, catalog, words }: RunGraphProps) {
  const graph = useMemo(() => parseGraphJson(graphJson), [graphJson]);
  const nodes = useMemo(
    () =>
      graph.nodes.map((n): StepFlowNode => {
        const word = words.get(n.id) ?? "";
        const title = titleOf(n, catalog);
        const category = catalog.find((c) => c.type === n.type)?.category ?? "op";
        return {
          id: n.id,
          type: "step",
          position: n.position,
          data: { title, category, summary: word, problems: [] },
          className: `run-node tone-${toneOf(word)}`,
          ariaLabel: `${title}: ${word || "not run"}`,
          draggable: false,
          connectable: false,
          selectable: false,
        };
      }),
    [graph, catalog, words],
  );
  const edges = useMemo(() => graph.edges.map((e): Edge => ({ id: e.id, source: e.source, target: e.target })), [graph]);
  const wrapper = useRef<HTMLDivElement>(null);
  const flow = useRef<ReactFlowInstance<StepFlowNode, Edge> | null>(null);
  const onInit = useCallback((f: ReactFlowInstance<StepFlowNode, Edge>) => void (flow.current = f), []);
  // A new width (a phone turned) shows the whole graph again, as the editor's canvas does.
  useEffect(() => {
    const watch = new ResizeObserver(() => void flow.current?.fitView(FIT_VIEW));
    if (wrapper.current) watch.observe(wrapper.current);
    return () => watch.disconnect();
  }, []);
  return (
    <div className="canvas run-canvas" ref={wrapper}>
      <ReactFlow<StepFlowNode, Edge> onInit={onInit} nodes={nodes} edges={edges} nodeTypes={NODE_TYPES} nodesDraggable={false} nodesConnectable={false} elementsSelectable={false} deleteKeyCode={null} fitView fitViewOptions={FIT_VIEW} minZoom={0.1}>
        <Background gap={20} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
