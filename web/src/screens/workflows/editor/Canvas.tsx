/**
 * The canvas: a React Flow view of the editor's graph. Nodes and edges are local copies kept in
 * step with the graph (React Flow measures and drags them); what the person does comes back as
 * one graph edit each: a move when a drag (or an arrow key) ends, a connection, a deletion, a
 * step dropped from the palette. A connection the rules refuse is refused while dragging
 * (isValidConnection) and its reason reported when it is let go.
 */
import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection,
  type Edge,
  type EdgeChange,
  type FinalConnectionState,
  type NodeChange,
  type OnSelectionChangeParams,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import "./editor.css";
import { useCallback, useEffect, useRef, useState, type DragEvent } from "react";
import type { EditorGraph, EditorNode } from "../../../workflows/model";
import { NODE_TYPES, type StepData, type StepFlowNode } from "./StepNode";

/** Props React Flow compares by identity: module constants, so a drag frame changes none of them. */
const DELETE_KEYS = ["Delete", "Backspace"];
const FIT_VIEW = { maxZoom: 1.2 };
const EDGE_OPTIONS = { interactionWidth: 16 };
const minimapClass = (n: { data: unknown }) => `minimap-${(n.data as StepData).category}`;
/**
 * The overview map is drawn on a canvas at least this wide: it is 200 x 150 px, which on a phone's
 * canvas (about 360 px) would cover half of what it gives an overview of.
 */
const MINIMAP_FROM_PX = 560;

/** The drag-and-drop type a palette entry carries (its node type). */
export const PALETTE_MIME = "application/x-vektor-step";

export interface CanvasProps {
  graph: EditorGraph;
  /** The data a node is drawn with; the same object while nothing about the node changed. */
  decorate: (node: EditorNode) => StepData;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[]) => void;
  onMove: (positions: Record<string, { x: number; y: number }>) => void;
  allowed: (source: string, target: string) => boolean;
  onConnect: (source: string, target: string) => void;
  onDelete: (nodeIds: string[], edgeIds: string[]) => void;
  onDropStep: (type: string, position: { x: number; y: number }) => void;
  onOpenSettings: (id: string) => void;
}

const toFlow = (node: EditorNode, data: StepData, old: StepFlowNode | undefined, selected: boolean): StepFlowNode => {
  if (old && old.data === data && old.position === node.position && old.selected === selected) return old;
  return { ...old, id: node.id, type: "step", position: node.position, data, selected, ariaLabel: `${data.title}${data.problems.length ? `, ${data.problems.length} problem${data.problems.length > 1 ? "s" : ""}` : ""}` };
};

function syncNodes(prev: StepFlowNode[], graph: EditorGraph, decorate: CanvasProps["decorate"], selected: ReadonlySet<string>): StepFlowNode[] {
  const byId = new Map(prev.map((n) => [n.id, n]));
  const next = graph.nodes.map((n) => toFlow(n, decorate(n), byId.get(n.id), selected.has(n.id)));
  return next.length === prev.length && next.every((n, i) => n === prev[i]) ? prev : next;
}

function syncEdges(prev: Edge[], graph: EditorGraph): Edge[] {
  const byId = new Map(prev.map((e) => [e.id, e]));
  const next = graph.edges.map((e) => {
    const old = byId.get(e.id);
    return old && old.source === e.source && old.target === e.target ? old : { id: e.id, source: e.source, target: e.target };
  });
  return next.length === prev.length && next.every((e, i) => e === prev[i]) ? prev : next;
}

export function Canvas(props: CanvasProps) {
  const { graph, decorate, selected, onSelect, onMove, allowed, onConnect, onDelete, onDropStep, onOpenSettings } = props;
  const [nodes, setNodes] = useState<StepFlowNode[]>(() => syncNodes([], graph, decorate, selected));
  const [edges, setEdges] = useState<Edge[]>(() => syncEdges([], graph));
  const flow = useReactFlow();

  useEffect(() => setNodes((prev) => syncNodes(prev, graph, decorate, selected)), [graph, decorate, selected]);

  // A new width (a phone turned, the layout's breakpoint crossed) shows the whole graph again.
  const wrapper = useRef<HTMLDivElement>(null);
  const [mapShown, setMapShown] = useState(true);
  useEffect(() => {
    let width = wrapper.current?.clientWidth ?? 0;
    // The observer reports the canvas's width when it starts observing, too: the map follows from the first frame on.
    const watch = new ResizeObserver(([entry]) => {
      const now = Math.round(entry!.contentRect.width);
      if (width && now && Math.abs(now - width) > 40) void flow.fitView(FIT_VIEW);
      if (now) setMapShown(now >= MINIMAP_FROM_PX);
      width = now;
    });
    if (wrapper.current) watch.observe(wrapper.current);
    return () => watch.disconnect();
  }, [flow]);
  useEffect(() => setEdges((prev) => syncEdges(prev, graph)), [graph]);

  const onNodesChange = useCallback(
    (changes: NodeChange<StepFlowNode>[]) => {
      // Removals go through onDelete (one undo step for nodes and edges together).
      const local = changes.filter((c) => c.type !== "remove");
      setNodes((prev) => applyNodeChanges(local, prev));
      const moved: Record<string, { x: number; y: number }> = {};
      for (const c of local) if (c.type === "position" && c.position && !c.dragging) moved[c.id] = { x: Math.round(c.position.x), y: Math.round(c.position.y) };
      if (Object.keys(moved).length) onMove(moved);
    },
    [onMove],
  );
  const onEdgesChange = useCallback((changes: EdgeChange[]) => setEdges((prev) => applyEdgeChanges(changes.filter((c) => c.type !== "remove"), prev)), []);
  const onSelectionChange = useCallback(({ nodes: chosen }: OnSelectionChangeParams) => onSelect(chosen.map((n) => n.id)), [onSelect]);

  /** Let go over a handle the rules refuse: report why (onConnect reports the rest). */
  const onConnectEnd = useCallback(
    (_: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (state.isValid !== false || !state.fromNode || !state.toNode || state.fromNode.id === state.toNode.id) return;
      const fromSource = state.fromHandle?.type !== "target";
      const [source, target] = fromSource ? [state.fromNode.id, state.toNode.id] : [state.toNode.id, state.fromNode.id];
      onConnect(source, target);
    },
    [onConnect],
  );

  // Every handler React Flow receives keeps its identity: a new one would re-render every node wrapper per frame.
  const isValidConnection = useCallback((c: Edge | Connection) => allowed(c.source, c.target), [allowed]);
  const onConnectEdge = useCallback((c: Connection) => onConnect(c.source, c.target), [onConnect]);
  const onDeleteElements = useCallback(({ nodes: n, edges: e }: { nodes: StepFlowNode[]; edges: Edge[] }) => onDelete(n.map((x) => x.id), e.map((x) => x.id)), [onDelete]);
  const onNodeDoubleClick = useCallback((_: unknown, n: StepFlowNode) => onOpenSettings(n.id), [onOpenSettings]);
  const onDragOver = useCallback((e: DragEvent) => {
    if (!e.dataTransfer.types.includes(PALETTE_MIME)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  }, []);
  const onDrop = useCallback(
    (e: DragEvent) => {
      const type = e.dataTransfer.getData(PALETTE_MIME);
      if (!type) return;
      e.preventDefault();
      const p = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      onDropStep(type, { x: Math.round(p.x), y: Math.round(p.y) });
    },
    [flow, onDropStep],
  );

  return (
    <div className="canvas" ref={wrapper} onDragOver={onDragOver} onDrop={onDrop}>
      <ReactFlow<StepFlowNode, Edge>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onSelectionChange={onSelectionChange}
        isValidConnection={isValidConnection}
        onConnect={onConnectEdge}
        onConnectEnd={onConnectEnd}
        onClickConnectEnd={onConnectEnd}
        onDelete={onDeleteElements}
        onNodeDoubleClick={onNodeDoubleClick}
        onlyRenderVisibleElements={graph.nodes.length > 150}
        deleteKeyCode={DELETE_KEYS}
        fitView
        fitViewOptions={FIT_VIEW}
        minZoom={0.1}
        defaultEdgeOptions={EDGE_OPTIONS}
      >
        <Background gap={20} />
        <Controls showInteractive={false} />
        {mapShown && <MiniMap pannable zoomable ariaLabel="Overview of the whole graph" nodeClassName={minimapClass} />}
      </ReactFlow>
    </div>
  );
}
