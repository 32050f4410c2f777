/**
 * Convert, browser first: pick or drop files, pick a tool that accepts them, set its options,
 * run on this device or on the server (chosen automatically, see engine.ts), watch progress,
 * cancel, download the results. Signed-out people can convert on this device.
 */
import { formatInfo } from "@vektor/shared/formats";
import { useEffect, useMemo, useRef, useState, type DragEvent, type FormEvent } from "react";
import { useProcessingConfig } from "../../api/config";
import { errorMessage } from "../../api/client";
import { useAccount } from "../../api/session";
import { useOnline } from "../../app/online";
import { plural } from "../../components/format";
import { fieldsOf, readParams, type FieldValue } from "../../components/params-form";
import { ParamsForm } from "../../components/ParamsForm";
import { countProblem, toolsFor } from "../../tools/catalog";
import { useCatalog } from "../../tools/use-catalog";
import { useKeepFamily } from "../../tools/offline";
import { EngineChoice } from "./EngineChoice";
import { autoEngine, deviceBlocked, deviceGaveUp, ENGINE_PLACES, serverBlocked, type Engine } from "./engine";
import { OfflineFamilies } from "./OfflineFamilies";
import { Results } from "./Results";
import { RunFailed, runDevice, runServer, type Result } from "./runs";

export function ConvertScreen() {
  const catalog = useCatalog();
  const config = useProcessingConfig();
  const account = useAccount();
  const online = useOnline();
  const [files, setFiles] = useState<File[]>([]);
  const [slug, setSlug] = useState("");
  const [values, setValues] = useState<Record<string, FieldValue>>({});
  const [picked, setPicked] = useState<Engine | null>(null);
  const [deviceFailed, setDeviceFailed] = useState(false);
  const [running, setRunning] = useState<AbortController | null>(null);
  const [progress, setProgress] = useState(0);
  const [status, setStatus] = useState("Loading the tool list…");
  const [alert, setAlert] = useState("");
  const [results, setResults] = useState<Result[]>([]);
  const resultsRef = useRef<Result[]>([]);
  const keepFamily = useKeepFamily();

  const choices = useMemo(() => toolsFor(catalog.tools, files), [catalog.tools, files]);
  const tool = choices.find((t) => t.slug === slug) ?? choices[0];
  const fields = useMemo(() => (tool ? fieldsOf(tool.params) : []), [tool]);
  const auto = autoEngine({ tool, sizes: files.map((f) => f.size), browserMaxBytes: config.browserMaxBytes, deviceFailed });
  const blocked = { device: deviceBlocked(tool), server: serverBlocked({ online, signedIn: Boolean(account.data), cloudEnabled: config.cloudEnabled, tool }) };
  const engine = picked ?? auto.engine;
  const problem = tool ? countProblem(tool, files.length) : null;
  const canRun = Boolean(tool) && !problem && !running && blocked[engine] === null;

  useEffect(() => {
    if (catalog.settled) setStatus((s) => (s === "Loading the tool list…" ? `${catalog.tools.length} tools available.` : s));
  }, [catalog.settled, catalog.tools.length]);
  useEffect(() => () => revoke(resultsRef.current), []);

  function chooseFiles(list: File[]) {
    setFiles(list);
    setPicked(null);
    setDeviceFailed(false);
    setAlert("");
  }

  function chooseTool(next: string) {
    setSlug(next);
    setValues({});
  }

  function showResults(next: Result[]) {
    revoke(resultsRef.current);
    resultsRef.current = next;
    setResults(next);
  }

  async function run(event: FormEvent) {
    event.preventDefault();
    if (!tool || !canRun) return;
    const read = readParams(fields, values);
    if (!read.ok) return setAlert(read.message);
    const controller = new AbortController();
    const where = ENGINE_PLACES[engine];
    setRunning(controller);
    setAlert("");
    setProgress(0);
    setStatus(`Running ${tool.title} on ${where}…`);
    const started = performance.now();
    try {
      const run = engine === "device" ? runDevice : runServer;
      const outputs = await run({
        tool,
        files,
        params: read.params,
        signal: controller.signal,
        onProgress: (fraction, message) => {
          setProgress(Math.round(fraction * 100));
          if (message) setStatus(`${tool.title}: ${message}`);
        },
      });
      setProgress(100);
      showResults(outputs);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      setStatus(`Done on ${where} in ${seconds} s: ${plural(outputs.length, "file")} ready to download.`);
      if (engine === "device") keepFamily(tool.family);
    } catch (err) {
      const failure = err instanceof RunFailed ? err : new RunFailed("TOOL_FAILED", errorMessage(err));
      if (failure.code === "CANCELLED") return setStatus("Cancelled.");
      setStatus(`Failed on ${where}.`);
      if (engine === "device" && deviceGaveUp(failure.code, failure.message)) {
        setDeviceFailed(true);
        setPicked(null);
        setAlert(`This device could not run ${tool.title}: ${failure.message}. ${blocked.server ?? "Press Run to run it on the server."}`);
      } else setAlert(failure.message);
    } finally {
      setRunning(null);
    }
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    if (!running) chooseFiles([...event.dataTransfer.files]);
  };

  return (
    <div className="screen">
      <h1>Convert</h1>
      <form aria-label="Convert a file" className="card" onSubmit={run} onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
        <div className="field">
          <label htmlFor="files">Files</label>
          <input id="files" type="file" multiple disabled={Boolean(running)} aria-describedby="files-hint" onChange={(e) => chooseFiles([...(e.target.files ?? [])])} />
          <small id="files-hint" className="hint">
            Choose or drop files. On this device they never leave your browser.
          </small>
        </div>
        <div className="field">
          <label htmlFor="tool">Tool</label>
          <select id="tool" value={tool?.slug ?? ""} disabled={choices.length === 0 || Boolean(running)} aria-describedby="tool-hint" onChange={(e) => chooseTool(e.target.value)}>
            {choices.map((t) => (
              <option key={t.slug} value={t.slug}>
                {t.title}
              </option>
            ))}
          </select>
          <small id="tool-hint" className="hint">
            {toolHint(tool, files, choices.length)}
          </small>
        </div>
        {tool ? <ParamsForm key={tool.slug} fields={fields} values={values} disabled={Boolean(running)} onChange={(k, v) => setValues((old) => ({ ...old, [k]: v }))} /> : null}
        <EngineChoice value={engine} reason={auto.reason} blocked={blocked} disabled={Boolean(running) || !tool} onPick={setPicked} />
        <div className="actions">
          <button type="submit" disabled={!canRun}>
            Run
          </button>
          <button type="button" className="secondary" disabled={!running} onClick={() => running?.abort()}>
            Cancel
          </button>
        </div>
        <div className="field">
          <label htmlFor="progress">Progress</label>
          <progress id="progress" max={100} value={progress} />
        </div>
        <p role="status" aria-live="polite">
          {status}
        </p>
        <p role="alert" className="error">
          {alert || (problem && !running ? problem : "") || (catalog.deviceError ? `Tools cannot run in this browser: ${errorMessage(catalog.deviceError)}` : "")}
        </p>
      </form>
      <Results results={results} />
      <OfflineFamilies />
    </div>
  );
}

function toolHint(tool: ReturnType<typeof toolsFor>[number] | undefined, files: File[], count: number): string {
  if (files.length === 0) return "Choose a file first.";
  if (count === 0) return `No tool takes ${files.length > 1 ? "these files together" : "this kind of file"}.`;
  if (!tool) return "";
  const produces = tool.produces.map((id) => formatInfo(id)?.title ?? id).join(", ");
  return `${tool.description} Produces: ${produces}.`;
}

function revoke(results: Result[]) {
  for (const r of results) if (r.local) URL.revokeObjectURL(r.href);
}
