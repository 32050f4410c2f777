/**
 * Run, on this device or on the server (a `Run on` choice made automatically, always with its
 * reason: see workflows/runner/choice.ts). On this device: pick local files, the saved graph
 * runs in the browser with the tool worker (never uploaded, no credits) and the results are
 * offered here. On the server: pick some of your uploaded files (or upload more now), see what
 * the run charges (POST /estimate: credits, steps of maxSteps; more steps than allowed and the
 * run is refused), start it, and go to the run's page. Both run the saved version.
 *
 * With `upTo` it is "Try up to here": the steps up to that one, as they are in the editor now
 * (saved or not), run on this device only, and its outputs are that step's.
 */
import { useNavigate } from "@tanstack/react-router";
import { useQueryClient } from "@tanstack/react-query";
import type { CatalogNode, Graph } from "@vektor/shared/schemas/workflow";
import { useId, useMemo, useRef, useState, type FormEvent } from "react";
import { useProcessingConfig } from "../../../api/config";
import { errorMessage } from "../../../api/client";
import { FILES_KEY, mimeFor, uploadFile } from "../../../api/files";
import { useRecentFiles, useStartRun, useWorkflowEstimate, type WorkflowSettings } from "../../../api/workflows";
import { useOnline } from "../../../app/online";
import { Dialog } from "../../../components/Dialog";
import { formatBytes, plural } from "../../../components/format";
import { ErrorText } from "../../../components/Guard";
import { useDeviceTools } from "../../../tools/device";
import { deviceMemoryBudget } from "../../../tools/memory";
import { autoRunEngine, choiceNodes, deviceBlocked, memoryShort, pickReason, type RunEngine, type RunChoiceFacts } from "../../../workflows/runner/choice";
import type { AskApproval, LocalFile } from "../../../workflows/runner/core";
import { runWorkflowOnDevice, workerTool } from "../../../workflows/runner/device";
import type { DeviceRun } from "../../../workflows/runner/device-runs";
import { EngineChoice } from "../../convert/EngineChoice";
import { deviceGaveUp } from "../../convert/engine";
import { graphUpTo } from "../../../workflows/model";
import { ApprovalAsk, DeviceResults, DeviceSteps, type PendingApproval } from "./DeviceRun";

interface Props {
  workflowId: string;
  versionId: string;
  name: string;
  /** The saved version's graphJson: what a run on this device runs (with `upTo`, the editor's graph as it is). */
  graphJson: string;
  /** Try up to this step: only the steps it needs, on this device. */
  upTo?: { nodeId: string; title: string };
  catalog: readonly CatalogNode[];
  dirty: boolean;
  settings: WorkflowSettings | undefined;
  onClose: () => void;
}

/** "850 ms", "12.4 s": a run's length as a person reads it. */
const formatDuration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

function readGraph(graphJson: string): Graph {
  try {
    return JSON.parse(graphJson) as Graph;
  } catch {
    return { nodes: [], edges: [] };
  }
}

export function RunDialog({ workflowId, versionId, name, graphJson, upTo, catalog, dirty, settings, onClose }: Props) {
  const queries = useQueryClient();
  const config = useProcessingConfig();
  const online = useOnline();
  const deviceTools = useDeviceTools();
  const [localFiles, setLocalFiles] = useState<File[]>([]);
  const [picked, setPicked] = useState<RunEngine | null>(null);
  const [status, setStatus] = useState("");
  const [deviceRun, setDeviceRun] = useState<DeviceRun | null>(null);
  const [outputs, setOutputs] = useState<LocalFile[] | null>(null);
  const [approval, setApproval] = useState<PendingApproval | null>(null);
  const running = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);
  /** This device gave up on a run (its worker crashed or ran out of memory): the server is offered. */
  const [deviceFailed, setDeviceFailed] = useState(false);

  const upToId = upTo?.nodeId;
  const graph = useMemo(() => (upToId ? graphUpTo(readGraph(graphJson), upToId) : readGraph(graphJson)), [graphJson, upToId]);
  const facts = useMemo((): RunChoiceFacts => {
    const titles = new Map(catalog.map((e) => [e.type, e.title]));
    const slugs = deviceTools.data ? new Set(deviceTools.data.map((m) => m.slug)) : null;
    const memory = new Map((deviceTools.data ?? []).map((m) => [m.slug, { title: m.title, family: m.family, memoryPerInputByte: m.limits?.memoryPerInputByte, blobInputs: m.io.blobInputs }]));
    return {
      nodes: choiceNodes(graph, (type) => titles.get(type) ?? type),
      toolOnDevice: (slug) => (slugs ? slugs.has(slug) : undefined),
      sizes: localFiles.map((f) => f.size),
      browserMaxBytes: config.browserMaxBytes,
      memoryBudget: deviceMemoryBudget(),
      toolMemory: (slug) => memory.get(slug),
      workerError: deviceTools.error ? errorMessage(deviceTools.error) : deviceFailed ? "it stopped during the last run" : null,
    };
  }, [catalog, graph, deviceTools.data, deviceTools.error, deviceFailed, localFiles, config.browserMaxBytes]);
  const auto = autoRunEngine(facts);
  const blocked = { device: deviceBlocked(facts), server: online ? null : "The server needs a network connection; you are offline." };
  const engine = upTo ? "device" : picked && blocked[picked] === null ? picked : auto.engine;
  const reason = picked === engine ? pickReason(engine) : auto.reason;

  const runHere = async () => {
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    setOutputs(null);
    setStatus("Running on this device…");
    const started = performance.now();
    try {
      const limits = new Map((deviceTools.data ?? []).map((m) => [m.slug, m.limits?.timeoutMs]));
      const askApproval: AskApproval = ({ nodeId, files }) =>
        new Promise((resolve) => {
          const title = deviceRunTitle(nodeId, graph, catalog);
          setStatus(`Waiting on this device for your approval of step “${title}”.`);
          setApproval({ title, files, answer: (d) => (setApproval(null), setStatus("Running on this device…"), resolve(d)) });
        });
      // A try runs no saved version: the device runs list names it by its step.
      const workflow = upTo ? { id: workflowId, name: `${name}, up to ${upTo.title}`, versionId: null, graph } : { id: workflowId, name, versionId, graph };
      const request = { workflow, catalog, files: localFiles, signal: controller.signal, onUpdate: setDeviceRun, askApproval };
      const { run, outputs } = await runWorkflowOnDevice(request, workerTool((slug) => limits.get(slug)));
      setDeviceRun(run);
      setOutputs(outputs);
      if (run.error && deviceGaveUp(run.error.code, run.error.message)) setDeviceFailed(true);
      const took = formatDuration(performance.now() - started);
      setStatus(run.status === "succeeded" ? `Done on this device in ${took}: ${plural(outputs.length, "file")} ready to download.` : `The run on this device ${run.status}: ${run.error?.message ?? ""}`);
    } catch (err) {
      setStatus(`The run on this device failed: ${errorMessage(err)}`);
    } finally {
      running.current = null;
      setBusy(false);
      // The runs list's "This device" section reads them (device-runs.ts).
      void queries.invalidateQueries({ queryKey: ["device-runs"] });
    }
  };

  const close = () => {
    running.current?.abort();
    approval?.answer({ approved: false, note: "The dialog was closed" });
    onClose();
  };

  return (
    <Dialog title={upTo ? `Try ${name} up to “${upTo.title}”` : `Run ${name}`} onClose={close} wide>
      {upTo ? <TryNote steps={graph.nodes.length} blocked={blocked.device} short={memoryShort(facts)} /> : null}
      {dirty && !upTo ? <p className="notice">You have unsaved changes: a run uses the saved version. Save first to run them.</p> : null}
      {upTo ? null : <EngineChoice value={engine} reason={reason} blocked={blocked} disabled={busy} onPick={setPicked} />}
      {engine === "device" ? (
        <DeviceForm files={localFiles} busy={busy} blocked={upTo ? blocked.device : null} onFiles={setLocalFiles} onStart={() => void runHere()} onCancel={busy ? () => running.current?.abort() : close} />
      ) : (
        <>
          {localFiles.length ? (
            <p>
              <button type="button" className="secondary" onClick={() => setLocalFiles([])}>
                Forget the files picked on this device
              </button>
            </p>
          ) : null}
          <ServerForm workflowId={workflowId} versionId={versionId} settings={settings} onStarting={() => setStatus("Starting on the server…")} onClose={close} />
        </>
      )}
      <p role="status" aria-live="polite">
        {status}
      </p>
      {approval ? <ApprovalAsk ask={approval} /> : null}
      {deviceRun && deviceRun.steps.length ? <DeviceSteps run={deviceRun} /> : null}
      {outputs ? <DeviceResults outputs={outputs} name={name} /> : null}
    </Dialog>
  );
}

/** What a try runs, and where: this device only (the server runs saved versions, whole). */
function TryNote({ steps, blocked, short }: { steps: number; blocked: string | null; short: string | null }) {
  return (
    <>
      <p>
        Runs {plural(steps, "step")} as they are in the editor now, saved or not, on this device only: nothing is uploaded and no credits are charged. The results are this step&rsquo;s outputs.
      </p>
      {blocked ? <p className="error">This device cannot try it: {blocked}</p> : short ? <p className="notice">It may not fit in this tab: {short}</p> : null}
    </>
  );
}

/** The catalog title of a plan node (`w/x` inside a sub-workflow is named by its own type). */
function deviceRunTitle(nodeId: string, graph: Graph, catalog: readonly CatalogNode[]): string {
  const node = graph.nodes.find((n) => n.id === nodeId);
  return (node && catalog.find((e) => e.type === node.type)?.title) ?? nodeId;
}

interface DeviceFormProps {
  files: File[];
  busy: boolean;
  /** Why this device cannot run it (a try has no server to fall back on), or null. */
  blocked: string | null;
  onFiles: (files: File[]) => void;
  onStart: () => void;
  onCancel: () => void;
}

function DeviceForm({ files, busy, blocked, onFiles, onStart, onCancel }: DeviceFormProps) {
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onStart();
  };
  return (
    <form onSubmit={submit}>
      <div className="field">
        <label htmlFor={`${id}-files`}>Files</label>
        <input id={`${id}-files`} type="file" multiple disabled={busy} onChange={(e) => onFiles([...(e.target.files ?? [])])} aria-describedby={`${id}-files-hint`} />
        <small id={`${id}-files-hint`} className="hint">
          {files.length ? `${plural(files.length, "file")}, ${formatBytes(files.reduce((n, f) => n + f.size, 0))}: they stay on this device.` : "Files from this device; they are not uploaded."}
        </small>
      </div>
      <p>On this device a run costs no credits.</p>
      <div className="actions">
        <button type="submit" disabled={busy || blocked !== null}>
          Start run
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

interface ServerFormProps {
  workflowId: string;
  versionId: string;
  settings: WorkflowSettings | undefined;
  onStarting: () => void;
  onClose: () => void;
}

function ServerForm({ workflowId, versionId, settings, onStarting, onClose }: ServerFormProps) {
  const id = useId();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const files = useRecentFiles();
  const estimate = useWorkflowEstimate(workflowId, versionId);
  const start = useStartRun(workflowId);
  const [chosen, setChosen] = useState<string[]>([]);
  const [uploading, setUploading] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState("");
  const uploaded = (files.data ?? []).filter((f) => f.status === "UPLOADED");
  const off = settings?.flags["workflow.enabled"] === false;
  const over = estimate.data && estimate.data.steps > estimate.data.maxSteps;

  const upload = async (list: File[]) => {
    setUploadError("");
    const ids: string[] = [];
    for (const file of list) {
      setUploading(file.name);
      try {
        ids.push((await uploadFile(file, mimeFor(file), () => {})).fileId);
      } catch (err) {
        setUploadError(`${file.name}: ${errorMessage(err)}`);
      }
    }
    setUploading(null);
    await queries.invalidateQueries({ queryKey: FILES_KEY });
    setChosen((c) => [...c, ...ids]);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onStarting();
    start.mutate(chosen, { onSuccess: (r) => void navigate({ to: "/workflows/runs/$runId", params: { runId: r.runId } }) });
  };

  return (
    <form onSubmit={submit}>
      <fieldset>
        <legend>Files for the run</legend>
        {files.isPending ? <p>Loading files…</p> : null}
        {files.data && uploaded.length === 0 ? <p className="hint">You have no uploaded files yet; upload some below, or run without files.</p> : null}
        <div className="file-choices">
          {uploaded.map((f) => (
            <div className="field field-check" key={f.fileId}>
              <input
                id={`${id}-${f.fileId}`}
                type="checkbox"
                checked={chosen.includes(f.fileId)}
                onChange={(e) => setChosen((c) => (e.target.checked ? [...c, f.fileId] : c.filter((x) => x !== f.fileId)))}
              />
              <label htmlFor={`${id}-${f.fileId}`}>{f.filename}</label>
              <small className="hint">{formatBytes(f.size)}</small>
            </div>
          ))}
        </div>
        <div className="field">
          <label htmlFor={`${id}-upload`}>Upload files now</label>
          <input id={`${id}-upload`} type="file" multiple disabled={uploading !== null} onChange={(e) => void upload([...(e.target.files ?? [])])} />
          {uploading ? <small className="hint">Uploading {uploading}…</small> : null}
        </div>
        <ErrorText error={files.error} message={uploadError} />
      </fieldset>
      <p id={`${id}-estimate`}>
        {estimate.data
          ? `${plural(chosen.length, "file")}: this run costs ${plural(estimate.data.credits, "credit")} (${estimate.data.steps} of ${estimate.data.maxSteps} steps).`
          : estimate.isPending
            ? "Working out the charge…"
            : ""}
      </p>
      {over ? (
        <p className="error">
          This workflow has {estimate.data!.steps} charged steps, more than the {estimate.data!.maxSteps} a run may have: the run will be refused. Remove steps (or sub-workflow steps) first.
        </p>
      ) : null}
      {off ? <p className="notice">Workflows are turned off by the administrator (workflow.enabled): runs cannot start.</p> : null}
      <ErrorText error={estimate.error ?? start.error} />
      <div className="actions">
        <button type="submit" disabled={start.isPending || off || uploading !== null} aria-describedby={`${id}-estimate`}>
          Start run
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
