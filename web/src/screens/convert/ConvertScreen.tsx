/**
 * Convert, browser first: pick or drop files, pick a tool that accepts them, set its options,
 * run on this device or on the server (chosen automatically, see engine.ts), watch progress,
 * cancel, download the results. Signed-out people can convert on this device. The state and
 * the run are useToolRun's (tool-run.ts); this renders them.
 */
import { formatInfo } from "@vektor/shared/formats";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { errorMessage } from "../../api/client";
import { ParamsForm } from "../../components/ParamsForm";
import type { ToolInfo } from "../../tools/catalog";
import { EngineChoice } from "./EngineChoice";
import { EngineDownload } from "./EngineDownload";
import { Intro } from "./Intro";
import { OfflineFamilies } from "./OfflineFamilies";
import { Results } from "./Results";
import { RunUnits } from "./RunUnits";
import { useStoredInputs } from "./stored-inputs";
import "./convert.css";
import { zipName } from "./download-all";
import type { RunMode } from "./tool-run";
import { useToolRun } from "./use-tool-run";

export function ConvertScreen() {
  const { state, plan, dispatch, deviceError, run, cancel } = useToolRun();
  const { files, values, running, units, progress, status, alert, results } = state;
  const { choices, tool, mode, fields, blocked, engine, engineHint, problem, canRun } = plan;
  const busy = Boolean(running);
  const chooseFiles = useCallback((list: File[]) => dispatch({ type: "choose-files", files: list }), [dispatch]);
  const stored = useStoredInputs(chooseFiles);

  const submit = (event: FormEvent) => (event.preventDefault(), void run());
  const dragging = usePageDrop(chooseFiles);

  return (
    <div className="screen">
      <h1>Convert</h1>
      {files.length === 0 ? <Intro /> : null}
      <form aria-label="Convert a file" className="card" onSubmit={submit}>
        <div className="field">
          <label htmlFor="files">Files</label>
          <input id="files" type="file" multiple disabled={busy} aria-describedby="files-hint" onChange={(e) => chooseFiles([...(e.target.files ?? [])])} />
          <small id="files-hint" className="hint chosen-files">
            {files.length && !stored.loading ? `Chosen: ${files.map((f) => f.name).join(", ")}. ` : ""}
            {stored.loading ? `Fetching ${stored.loading === 1 ? "your file" : `your ${stored.loading} files`} from Files… ` : ""}
            Choose files, or drop them anywhere on this page. Where they go is under Run on.
          </small>
        </div>
        <div className="field">
          <label htmlFor="tool">Tool</label>
          <select id="tool" value={tool?.slug ?? ""} disabled={choices.length === 0 || busy} aria-describedby="tool-hint" onChange={(e) => dispatch({ type: "choose-tool", slug: e.target.value })}>
            {choices.map((t) => (
              <option key={t.slug} value={t.slug}>
                {t.title}
              </option>
            ))}
          </select>
          <small id="tool-hint" className="hint">
            {toolHint(tool, files, choices.length, mode)}
          </small>
        </div>
        {tool ? <ParamsForm key={tool.slug} fields={fields} values={values} disabled={busy} onChange={(key, value) => dispatch({ type: "set-value", key, value })} /> : null}
        <EngineChoice value={engine} reason={engineHint} blocked={blocked} disabled={busy || !tool} onPick={(picked) => dispatch({ type: "pick-engine", engine: picked })} />
        <div className="actions">
          <button type="submit" disabled={!canRun}>
            Run
          </button>
          <button type="button" className="secondary" disabled={!busy} onClick={cancel}>
            Cancel
          </button>
        </div>
        <div className="field">
          <label htmlFor="progress">Progress</label>
          <progress id="progress" max={100} value={progress} />
        </div>
        {engine === "device" ? <EngineDownload family={tool?.family} /> : null}
        <RunUnits units={units} />
        <p role="status" aria-live="polite">
          {status}
        </p>
        <p role="alert" className="error">
          {alert || stored.error || (problem && !busy ? problem : "") || (deviceError ? `Tools cannot run in this browser: ${errorMessage(deviceError)}` : "")}
        </p>
      </form>
      <Results results={results} zipName={zipName(tool?.slug ?? "vektor")} />
      <OfflineFamilies />
      {dragging ? (
        <div className="drop-overlay" aria-hidden="true">
          Drop files to convert
        </div>
      ) : null}
    </div>
  );
}

function toolHint(tool: ToolInfo | undefined, files: File[], count: number, mode: RunMode): string {
  if (files.length === 0) return "Choose a file first.";
  if (count === 0) return `No tool takes ${files.length > 1 ? "all of these files" : "this kind of file"}.`;
  if (!tool) return "";
  const produces = tool.produces.map((id) => formatInfo(id)?.title ?? id).join(", ");
  const runs = files.length < 2 ? "" : mode === "each" ? ` Runs once for each of the ${files.length} files.` : ` Runs once over all ${files.length} files.`;
  return `${tool.description} Produces: ${produces}.${runs}`;
}

/** The whole page takes dropped files (not only the form); true while files are dragged over it. */
function usePageDrop(onFiles: (files: File[]) => void): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    const hasFiles = (e: DragEvent) => Boolean(e.dataTransfer?.types.includes("Files"));
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(true);
    };
    // Leaving the window (no element to go to) ends the drag over the page.
    const leave = (e: DragEvent) => e.relatedTarget === null && setDragging(false);
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(false);
      onFiles([...(e.dataTransfer?.files ?? [])]);
    };
    window.addEventListener("dragover", over);
    window.addEventListener("dragleave", leave);
    window.addEventListener("drop", drop);
    return () => {
      window.removeEventListener("dragover", over);
      window.removeEventListener("dragleave", leave);
      window.removeEventListener("drop", drop);
    };
  }, [onFiles]);
  return dragging;
}
