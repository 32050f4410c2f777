/**
 * The workflow editor (`/workflows/$id`, its own chunk with React Flow, dagre and croner): the
 * graph is an undo stack over the editor model (web/src/workflows/model); the canvas and the
 * outline are two views of it with the same actions. Problems come from the server's validation
 * (debounced on every change), shown on the steps and in a list; Save makes a new version.
 * Side panels: palette, a step's settings, versions, triggers, the workflow's settings.
 */
import type { Workflow } from "@vektor/shared/schemas/workflow";
import { useParams } from "@tanstack/react-router";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { errorMessage } from "../../../api/client";
import { useAllWorkflows, useCatalog, useSaveWorkflow, useValidation, useWorkflow, useWorkflowSettings } from "../../../api/workflows";
import { plural } from "../../../components/format";
import { ErrorText } from "../../../components/Guard";
import { useDebounced } from "../../../components/use-debounced";
import { useStoredFlag } from "../../../components/use-stored-flag";
import {
  addNode,
  canConnect,
  connect,
  copyNodes,
  disconnect,
  entryOf,
  exportGraph,
  importGraph,
  moveNodes,
  parseGraphJson,
  pasteNodes,
  removeNodes,
  setParams,
  stepLabel,
  tidy,
  titleOf,
  toGraphJson,
  type CatalogEntry,
  type EditorGraph,
  type EditorNode,
} from "../../../workflows/model";
import { Canvas } from "./Canvas";
import { Outline } from "./Outline";
import { Palette } from "./Palette";
import { ProblemList } from "./ProblemList";
import { RunDialog } from "./RunDialog";
import { draftOf, isDraftChanged, readRunOptions, runOptionsJson, templateOptionsJson, type RunOptionsDraft } from "./run-options";
import { SettingsPanel } from "./SettingsPanel";
import type { StepData } from "./StepNode";
import { StepSettings } from "./StepSettings";
import { TemplateDialog } from "./TemplateDialog";
import { paramsSummary } from "./summary";
import { TriggersPanel } from "./TriggersPanel";
import { useEditorKeys } from "./use-editor-keys";
import { useGraphHistory } from "./use-graph-history";
import { RunsPanel } from "../runs/RunsPanel";
import { VersionsPanel } from "./VersionsPanel";

/** How long the graph rests before it is sent for validation. */
const VALIDATE_DEBOUNCE_MS = 350;

type Panel = { kind: "palette" } | { kind: "step"; id: string } | { kind: "versions" } | { kind: "runs" } | { kind: "triggers" } | { kind: "settings" };

export function EditorScreen() {
  const { id } = useParams({ from: "/workflows/$id" });
  return (
    <div className="screen wf-editor-screen">
      <Load id={id} />
    </div>
  );
}

function Load({ id }: { id: string }) {
  const workflow = useWorkflow(id);
  const catalog = useCatalog();
  if (workflow.error || catalog.error) return <ErrorText error={workflow.error ?? catalog.error} />;
  if (!workflow.data || !catalog.data) return <p>Loading the workflow…</p>;
  return (
    <ReactFlowProvider>
      <Editor key={id} workflow={workflow.data} catalog={catalog.data} />
    </ReactFlowProvider>
  );
}


function readGraph(graphJson: string): { graph: EditorGraph; problem: string | null } {
  try {
    return { graph: parseGraphJson(graphJson), problem: null };
  } catch (err) {
    return { graph: { nodes: [], edges: [] }, problem: `The saved graph could not be read (${(err as Error).message}); you are starting from an empty one.` };
  }
}

function Editor({ workflow, catalog }: { workflow: Workflow; catalog: CatalogEntry[] }) {
  const flow = useReactFlow();
  const [start] = useState(() => readGraph(workflow.graphJson));
  const history = useGraphHistory(start.graph);
  const { graph } = history;
  const graphJson = useMemo(() => toGraphJson(graph), [graph]);
  const [baseline, setBaseline] = useState(() => ({ graphJson: toGraphJson(start.graph), name: workflow.name }));
  const [name, setName] = useState(workflow.name);
  const [options, setOptions] = useState(() => readRunOptions(workflow));
  const [draft, setDraft] = useState<RunOptionsDraft>(() => draftOf(readRunOptions(workflow)));
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [panel, setPanel] = useState<Panel>({ kind: "palette" });
  // Hidden, the canvas takes the outline's width (three columns only; a phone always shows it).
  const [outlineShown, setOutlineShown] = useStoredFlag("vektor.editor.outline", true);
  const [message, setMessage] = useState("");
  const [alert, setAlert] = useState(start.problem ?? "");
  const [dialog, setDialog] = useState<"run" | "template" | null>(null);
  /** The step a "Try up to here" dialog runs to, while it is open. */
  const [tryTo, setTryTo] = useState<string | null>(null);
  const clipboard = useRef("");
  const importInput = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLDivElement>(null);

  const saved = useWorkflow(workflow.id).data ?? workflow;
  const save = useSaveWorkflow(workflow.id);
  const settings = useWorkflowSettings().data;
  const workflows = useAllWorkflows(graph.nodes.some((n) => n.type === "op.workflow"));
  const validation = useValidation(useDebounced(graphJson, VALIDATE_DEBOUNCE_MS));
  const checking = validation.isFetching || validation.data === undefined;

  const dirty = graphJson !== baseline.graphJson || name !== baseline.name || isDraftChanged(options, draft);
  const tell = useCallback((text: string) => (setMessage(text), setAlert("")), []);
  const refuse = useCallback((text: string) => setAlert(text), []);

  // ---- what each step is called and shows ----
  const problems = useMemo(() => {
    const m = new Map<string, string[]>();
    for (const issue of validation.data?.issues ?? []) if (issue.nodeId) m.set(issue.nodeId, [...(m.get(issue.nodeId) ?? []), issue.message]);
    return m;
  }, [validation.data]);
  const nodeById = useMemo(() => new Map(graph.nodes.map((n) => [n.id, n])), [graph.nodes]);
  const labelOf = useCallback((id: string) => {
    const n = nodeById.get(id);
    return n ? stepLabel(n, graph, catalog) : id;
  }, [nodeById, graph, catalog]);
  const titleById = useCallback((id: string) => {
    const n = nodeById.get(id);
    return n ? titleOf(n, catalog) : id;
  }, [nodeById, catalog]);
  const summaryOf = useCallback((id: string) => paramsSummary(nodeById.get(id)?.data.params), [nodeById]);

  // The same data object while a node and its problems are unchanged: memoised nodes skip rendering.
  const decorated = useRef(new WeakMap<EditorNode, { key: string; data: StepData }>());
  const decorate = useCallback(
    (node: EditorNode): StepData => {
      const list = problems.get(node.id) ?? [];
      const key = list.join("\n");
      const hit = decorated.current.get(node);
      if (hit && hit.key === key) return hit.data;
      const data: StepData = { title: titleOf(node, catalog), category: entryOf(catalog, node.type)?.category ?? "op", summary: paramsSummary(node.data.params, 40), problems: list };
      decorated.current.set(node, { key, data });
      return data;
    },
    [problems, catalog],
  );

  // ---- actions (each one undo step) ----
  const later = (fn: () => void) => setTimeout(fn, 60);
  const showNode = useCallback(
    (id: string) => {
      setSelected(new Set([id]));
      later(() => void flow.fitView({ nodes: [{ id }], duration: 200, maxZoom: 1.2 }));
    },
    [flow],
  );

  const addStep = useCallback(
    (type: string, position?: { x: number; y: number }) => {
      const entry = entryOf(catalog, type);
      if (!entry) return refuse(`There is no step kind ${type}.`);
      let added = "";
      history.edit((g) => {
        const r = addNode(g, entry, position);
        added = r.id;
        return r.graph;
      });
      if (!added) return;
      setSelected(new Set([added]));
      tell(`Added ${entry.title}`);
    },
    [catalog, history, tell, refuse],
  );
  /** From the palette without a drop: in the middle of what the canvas shows. */
  const addAtCenter = useCallback(
    (type: string) => {
      const box = root.current?.querySelector(".canvas")?.getBoundingClientRect();
      const p = box ? flow.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 }) : undefined;
      addStep(type, p ? { x: Math.round(p.x - 110), y: Math.round(p.y - 36) } : undefined);
    },
    [addStep, flow],
  );

  const connectSteps = useCallback(
    (source: string, target: string) => {
      const r = connect(history.latest(), source, target, catalog);
      if (!r.ok) return refuse(`Not connected: ${r.reason}.`);
      history.edit(() => r.graph);
      tell(`Connected ${labelOf(source)} to ${labelOf(target)}`);
    },
    [history, catalog, refuse, tell, labelOf],
  );
  const allowed = useCallback((source: string, target: string) => canConnect(history.latest(), source, target, catalog).ok, [history, catalog]);

  const deleteSteps = useCallback(
    (ids: string[], edgeIds: string[] = []) => {
      const names = ids.map(labelOf);
      history.edit((g) => edgeIds.reduce((acc, e) => disconnect(acc, e), removeNodes(g, ids)));
      setSelected((s) => new Set([...s].filter((x) => !ids.includes(x))));
      if (ids.length) tell(ids.length === 1 ? `Deleted ${names[0]}` : `Deleted ${ids.length} steps`);
      else if (edgeIds.length) tell(edgeIds.length === 1 ? "Connection removed" : `${edgeIds.length} connections removed`);
    },
    [history, labelOf, tell],
  );
  const disconnectEdge = useCallback(
    (edgeId: string) => {
      const e = history.latest().edges.find((x) => x.id === edgeId);
      if (history.edit((g) => disconnect(g, edgeId)) && e) tell(`Disconnected ${labelOf(e.source)} from ${labelOf(e.target)}`);
    },
    [history, labelOf, tell],
  );
  const move = useCallback((positions: Record<string, { x: number; y: number }>) => void history.edit((g) => moveNodes(g, positions)), [history]);
  const onSelect = useCallback((ids: string[]) => setSelected((s) => (ids.length === s.size && ids.every((x) => s.has(x)) ? s : new Set(ids))), []);

  const undo = useCallback(() => tell(history.undo() ? "Undone" : "Nothing to undo"), [history, tell]);
  const redo = useCallback(() => tell(history.redo() ? "Redone" : "Nothing to redo"), [history, tell]);
  const doTidy = () => {
    if (history.edit((g) => tidy(g))) later(() => void flow.fitView({ duration: 200, maxZoom: 1.2 }));
    tell("Tidied");
  };

  /** The selected steps as workflow JSON, kept for Paste steps too; null when none is selected. */
  const copyText = useCallback(() => {
    if (!selected.size) return null;
    const text = copyNodes(history.latest(), [...selected]);
    clipboard.current = text;
    tell(`Copied ${plural(selected.size, "step")}`);
    return text;
  }, [selected, history, tell]);
  const copySteps = () => {
    const text = copyText();
    if (text === null) return refuse("Select steps first (on the canvas, or Show on canvas in the outline).");
    void navigator.clipboard?.writeText(text).catch(() => undefined);
  };
  const pasteText = useCallback(
    (text: string) => {
      const r = pasteNodes(history.latest(), text);
      if (!r.ok) return refuse(`Not pasted: ${r.reason}.`);
      history.edit(() => r.graph);
      setSelected(new Set(r.ids));
      tell(`Pasted ${plural(r.ids.length, "step")}`);
    },
    [history, refuse, tell],
  );
  const pasteSteps = async () => {
    let text = clipboard.current;
    try {
      text = (await navigator.clipboard.readText()) || text;
    } catch {
      // No permission to read the clipboard: the steps copied here are pasted.
    }
    if (!text) return refuse("Nothing to paste: copy steps first.");
    pasteText(text);
  };

  const exportFile = () => {
    const url = URL.createObjectURL(new Blob([exportGraph(graph)], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${name.replace(/[^\w.-]+/g, "-") || "workflow"}.workflow.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    tell("Exported the graph");
  };
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    const r = importGraph(await file.text());
    if (importInput.current) importInput.current.value = "";
    if (!r.ok) return refuse(`Not imported: ${r.reason}.`);
    history.edit(() => r.graph);
    setSelected(new Set());
    later(() => void flow.fitView({ duration: 200, maxZoom: 1.2 }));
    tell(`Imported ${file.name}: ${plural(r.graph.nodes.length, "step")}`);
  };

  const doSave = () => {
    const paramsJson = runOptionsJson(options, draft);
    const body = { name: name.trim() || workflow.name, graphJson, ...(paramsJson !== undefined ? { paramsJson } : {}) };
    setMessage("Saving…");
    save.mutate(body, {
      onSuccess: (w) => {
        setBaseline({ graphJson: body.graphJson, name: w.name });
        setName(w.name);
        const next = readRunOptions(w);
        setOptions(next);
        setDraft(draftOf(next));
        tell("Saved");
      },
      onError: (err) => (setMessage("Not saved"), refuse(`Not saved: ${errorMessage(err)}`)),
    });
  };

  const restored = (restoredJson: string, restoredName: string, when: string) => {
    const r = readGraph(restoredJson);
    history.edit(() => r.graph);
    setBaseline({ graphJson: toGraphJson(r.graph), name: restoredName });
    setName(restoredName);
    later(() => void flow.fitView({ duration: 200, maxZoom: 1.2 }));
    tell(`Restored the version of ${when} as a new version`);
  };

  // ---- keyboard: undo/redo, copy/paste of steps (never inside a text field) ----
  useEditorKeys(root, { undo, redo, copy: copyText, paste: pasteText });

  // Unsaved changes are not lost to a closed tab without a question.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  // A step whose settings are open and that is gone (deleted, undone) closes its panel.
  const panelNode = panel.kind === "step" ? nodeById.get(panel.id) : undefined;
  useEffect(() => {
    if (panel.kind === "step" && !panelNode) setPanel({ kind: "palette" });
  }, [panel, panelNode]);

  const openSettings = useCallback((id: string) => (setSelected(new Set([id])), setPanel({ kind: "step", id })), []);
  const toPalette = () => setPanel({ kind: "palette" });
  const toggle = (kind: "versions" | "runs" | "triggers" | "settings") => setPanel((p) => (p.kind === kind ? { kind: "palette" } : { kind }));

  const v = validation.data;
  const estimate = v && settings ? `Estimate: ${plural(settings.baseCredits + settings.perStepCredits * v.steps, "credit")} per run, ${v.steps} of ${v.maxSteps} steps${v.steps > v.maxSteps ? " (over the limit: a run is refused)" : ""}.` : "Estimate: working it out…";
  const issues = v?.issues ?? [];
  const problemList = <ProblemList issues={issues} checking={checking && !v} error={validation.error} labelOf={labelOf} known={(id) => nodeById.has(id)} onPick={(id) => (openSettings(id), showNode(id))} />;

  return (
    <div className="wf-editor" ref={root}>
      <div className="editor-head">
        <h1>{name || workflow.name}</h1>
        <p className="estimate">{estimate}</p>
        <p className="save-state">{dirty ? "Unsaved changes." : "All changes saved."}</p>
      </div>
      <div className="toolbar">
        <button type="button" onClick={doSave} disabled={save.isPending}>
          Save
        </button>
        <button type="button" className="secondary" onClick={undo} disabled={!history.canUndo} aria-keyshortcuts="Control+Z">
          Undo
        </button>
        <button type="button" className="secondary" onClick={redo} disabled={!history.canRedo} aria-keyshortcuts="Control+Shift+Z">
          Redo
        </button>
        <button type="button" className="secondary" onClick={doTidy}>
          Tidy
        </button>
        <button type="button" className="secondary outline-toggle" aria-pressed={outlineShown} aria-controls="editor-outline" onClick={() => setOutlineShown(!outlineShown)}>
          Outline
        </button>
        <button type="button" className="secondary" aria-pressed={panel.kind === "versions"} onClick={() => toggle("versions")}>
          Versions
        </button>
        <button type="button" className="secondary" aria-pressed={panel.kind === "runs"} onClick={() => toggle("runs")}>
          Run history
        </button>
        <button type="button" className="secondary" aria-pressed={panel.kind === "triggers"} onClick={() => toggle("triggers")}>
          Triggers
        </button>
        <button type="button" className="secondary" aria-pressed={panel.kind === "settings"} onClick={() => toggle("settings")}>
          Workflow settings
        </button>
        <button type="button" onClick={() => setDialog("run")}>
          Run
        </button>
        <details className="more-actions">
          <summary>More actions</summary>
          <div className="more-actions-list">
            <button type="button" className="secondary" onClick={copySteps} disabled={selected.size === 0}>
              Copy steps
            </button>
            <button type="button" className="secondary" onClick={() => void pasteSteps()}>
              Paste steps
            </button>
            <button type="button" className="secondary" onClick={exportFile}>
              Export
            </button>
            <button type="button" className="secondary" onClick={() => importInput.current?.click()}>
              Import
            </button>
            <input ref={importInput} type="file" accept=".json,application/json" hidden onChange={(e) => void importFile(e.target.files?.[0])} />
            <button type="button" className="secondary" onClick={() => setDialog("template")}>
              Make template
            </button>
          </div>
        </details>
      </div>
      <p role="status" className="status-line">
        {message}
      </p>
      <div role="alert" className="alert-line">
        {alert ? (
          <>
            {alert}{" "}
            <button type="button" className="link-button" onClick={() => setAlert("")}>
              Dismiss
            </button>
          </>
        ) : null}
      </div>
      <div className={outlineShown ? "editor-grid" : "editor-grid outline-hidden"}>
        <div className="editor-outline" id="editor-outline">
          <Outline
            graph={graph}
            catalog={catalog}
            titleOf={titleById}
            summaryOf={summaryOf}
            problems={problems}
            selected={selected}
            onAdd={(type) => addStep(type)}
            onConnect={connectSteps}
            onDisconnect={disconnectEdge}
            onDelete={(id) => deleteSteps([id])}
            onSettings={openSettings}
            onShow={showNode}
          />
          {problemList}
        </div>
        <section className="editor-canvas" aria-label="Canvas">
          <Canvas
            graph={graph}
            decorate={decorate}
            selected={selected}
            onSelect={onSelect}
            onMove={move}
            allowed={allowed}
            onConnect={connectSteps}
            onDelete={deleteSteps}
            onDropStep={addStep}
            onOpenSettings={openSettings}
          />
        </section>
        <div className={`editor-side side-${panel.kind}`}>
          {outlineShown ? null : <div className="problems-aside">{problemList}</div>}
          {panel.kind === "palette" ? <Palette catalog={catalog} onAdd={addAtCenter} /> : null}
          {panel.kind === "step" && panelNode ? (
            <StepSettings
              key={panelNode.id}
              node={panelNode}
              entry={entryOf(catalog, panelNode.type)}
              title={labelOf(panelNode.id)}
              problems={problems.get(panelNode.id) ?? []}
              workflows={workflows.data}
              selfId={workflow.id}
              onApply={(params) => {
                if (history.edit((g) => setParams(g, panelNode.id, params))) tell(`Settings of ${labelOf(panelNode.id)} applied`);
                else tell("Nothing changed");
              }}
              onTry={() => setTryTo(panelNode.id)}
              onClose={toPalette}
            />
          ) : null}
          {panel.kind === "runs" ? <RunsPanel workflowId={workflow.id} onClose={toPalette} /> : null}
          {panel.kind === "versions" ? <VersionsPanel workflowId={workflow.id} catalog={catalog} onRestored={restored} onClose={toPalette} /> : null}
          {panel.kind === "triggers" ? <TriggersPanel workflowId={workflow.id} settings={settings} onClose={toPalette} onMessage={tell} /> : null}
          {panel.kind === "settings" ? (
            <SettingsPanel name={name} onName={setName} options={options} draft={draft} onDraft={setDraft} settings={settings} estimate={estimate} onClose={toPalette} />
          ) : null}
        </div>
      </div>
      {dialog === "run" ? <RunDialog workflowId={workflow.id} versionId={saved.versionId} name={name} graphJson={saved.graphJson} catalog={catalog} dirty={dirty} settings={settings} onClose={() => setDialog(null)} /> : null}
      {tryTo && nodeById.has(tryTo) ? (
        <RunDialog workflowId={workflow.id} versionId={saved.versionId} name={name} graphJson={graphJson} upTo={{ nodeId: tryTo, title: labelOf(tryTo) }} catalog={catalog} dirty={dirty} settings={settings} onClose={() => setTryTo(null)} />
      ) : null}
      {dialog === "template" ? <TemplateDialog name={name} graphJson={graphJson} paramsJson={templateOptionsJson(options, draft)} onClose={() => setDialog(null)} onDone={(t) => (setDialog(null), tell(`Template ${t} created`))} /> : null}
    </div>
  );
}
