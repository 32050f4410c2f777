/**
 * The converter page: pick files, pick a tool that accepts them (from the registry's manifests,
 * as the worker reports them), set its options, run it in the tool worker with progress and
 * cancel, and download the results. Nothing is uploaded: the files never leave the browser.
 */
import { candidateFormats, formatInfo } from "@vektor/shared/formats";
import { ToolError, type ToolManifest, type ToolOutput } from "@vektor/shared/tools/manifest";
import { formatBytes, h, replaceChildren } from "../components/dom";
import { paramsForm, type JsonSchema, type ParamsForm } from "../components/params-form";
import type { ToolBridge } from "../workers/bridge";

/** Tools that accept every one of `files` (by MIME type and extension). */
export function toolsFor(manifests: ToolManifest[], files: File[]): ToolManifest[] {
  if (files.length === 0) return [];
  const formats = files.map((f) => new Set(candidateFormats(f.type, f.name).map((c) => c.id as string)));
  return manifests.filter((m) => formats.every((set) => m.io.accepts.some((id) => set.has(id))));
}

function countProblem(m: ToolManifest, count: number): string | null {
  const min = m.io.minInputs ?? 1;
  const max = m.io.maxInputs ?? 1;
  if (count >= min && count <= max) return null;
  if (min === max) return `${m.title} takes exactly ${min} file${min === 1 ? "" : "s"}; ${count} chosen.`;
  return `${m.title} takes ${min} to ${max} files; ${count} chosen.`;
}

export function convertPage(root: HTMLElement, bridge: ToolBridge): void {
  let manifests: ToolManifest[] = [];
  let files: File[] = [];
  let form: ParamsForm | null = null;
  let running: AbortController | null = null;
  let resultUrls: string[] = [];

  const fileInput = h("input", { id: "files", type: "file", multiple: true, "aria-describedby": "files-hint" });
  const fileHint = h("small", { id: "files-hint", class: "hint" }, "Your files stay on this device: tools run in your browser.");
  const toolSelect = h("select", { id: "tool", disabled: true, "aria-describedby": "tool-hint" });
  const toolHint = h("small", { id: "tool-hint", class: "hint" }, "Choose a file first.");
  const paramsSlot = h("div");
  const runButton = h("button", { type: "submit", disabled: true }, "Run");
  const cancelButton = h("button", { type: "button", disabled: true }, "Cancel");
  const progress = h("progress", { id: "progress", max: 100, value: 0 });
  const status = h("p", { role: "status", "aria-live": "polite" }, "Loading the tool list…");
  const alert = h("p", { role: "alert", class: "error" });
  const resultList = h("ul", { class: "results" });
  const resultSection = h("section", { "aria-labelledby": "results-title", hidden: true }, h("h2", { id: "results-title" }, "Results"), resultList);

  const formEl = h(
    "form",
    { "aria-label": "Convert a file" },
    h("div", { class: "field" }, h("label", { for: "files" }, "Files"), fileInput, fileHint),
    h("div", { class: "field" }, h("label", { for: "tool" }, "Tool"), toolSelect, toolHint),
    paramsSlot,
    h("div", { class: "actions" }, runButton, cancelButton),
    h("div", { class: "field" }, h("label", { for: "progress" }, "Progress"), progress),
    status,
    alert,
  );

  replaceChildren(
    root,
    h("header", {}, h("h1", {}, "Vektor"), h("p", { class: "lead" }, "Convert PDF, CAD, GIS, point-cloud, PCB, BIM and media files in your browser.")),
    h("main", {}, formEl, resultSection),
    h("footer", {}, h("p", { id: "offline-state", "aria-live": "polite" }), h("p", {}, h("a", { href: "/docs" }, "API reference"))),
  );

  const selected = () => manifests.find((m) => m.slug === toolSelect.value);

  function refreshTools() {
    const choices = toolsFor(manifests, files);
    const previous = toolSelect.value;
    replaceChildren(toolSelect, ...choices.map((m) => h("option", { value: m.slug }, m.title)));
    if (choices.some((m) => m.slug === previous)) toolSelect.value = previous;
    toolSelect.disabled = choices.length === 0 || running !== null;
    if (files.length === 0) toolHint.textContent = "Choose a file first.";
    else if (choices.length === 0) {
      const kinds = [...new Set(files.flatMap((f) => candidateFormats(f.type, f.name).map((c) => c.title)))];
      toolHint.textContent = `No tool takes ${kinds.length ? kinds.join(" / ") : "this kind of file"}${files.length > 1 ? " together" : ""}.`;
    }
    refreshTool();
  }

  function refreshTool() {
    const m = selected();
    form = m ? paramsForm(m.params as unknown as JsonSchema) : null;
    replaceChildren(paramsSlot, form?.element);
    if (m) {
      const produces = m.io.produces.map((id) => formatInfo(id)?.title ?? id).join(", ");
      toolHint.textContent = `${m.description} Produces: ${produces}.`;
    }
    refreshActions();
  }

  function refreshActions() {
    const m = selected();
    const problem = m ? countProblem(m, files.length) : null;
    runButton.disabled = !m || problem !== null || running !== null;
    cancelButton.disabled = running === null;
    fileInput.disabled = running !== null;
    toolSelect.disabled = toolSelect.options.length === 0 || running !== null;
    if (problem && !running) alert.textContent = problem;
    else if (!running && alert.dataset.kind !== "run") alert.textContent = "";
  }

  function showResults(outputs: ToolOutput[]) {
    for (const url of resultUrls) URL.revokeObjectURL(url);
    resultUrls = outputs.map((o) => URL.createObjectURL(new Blob([o.bytes as Uint8Array<ArrayBuffer>], { type: o.mime })));
    replaceChildren(
      resultList,
      ...outputs.map((o, i) => h("li", {}, h("a", { href: resultUrls[i], download: o.name }, `Download ${o.name}`), ` (${formatBytes(o.bytes.byteLength)}, ${o.mime})`)),
    );
    resultSection.hidden = outputs.length === 0;
  }

  async function run() {
    const m = selected();
    if (!m || !form || running) return;
    const read = form.read();
    if (!read.ok) {
      alert.dataset.kind = "run";
      alert.textContent = read.message;
      return;
    }
    const controller = new AbortController();
    running = controller;
    alert.dataset.kind = "";
    alert.textContent = "";
    progress.value = 0;
    status.textContent = `Running ${m.title}…`;
    refreshActions();
    const started = performance.now();
    try {
      const inputs = await Promise.all(files.map(async (f) => ({ name: f.name, mime: f.type || undefined, bytes: new Uint8Array(await f.arrayBuffer()) })));
      const outputs = await bridge.run(m.slug, inputs, read.params, {
        signal: controller.signal,
        timeoutMs: m.limits?.timeoutMs,
        onProgress: (fraction, message) => {
          progress.value = Math.round(fraction * 100);
          if (message) status.textContent = `${m.title}: ${message}`;
        },
      });
      progress.value = 100;
      showResults(outputs);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      status.textContent = `Done in ${seconds} s: ${outputs.length} file${outputs.length === 1 ? "" : "s"} ready to download.`;
    } catch (err) {
      const error = err instanceof ToolError ? err : new ToolError("TOOL_FAILED", String((err as Error)?.message ?? err));
      if (error.code === "CANCELLED") status.textContent = "Cancelled.";
      else {
        status.textContent = "Failed.";
        alert.dataset.kind = "run";
        alert.textContent = `${error.message} (${error.code})`;
      }
    } finally {
      running = null;
      refreshActions();
    }
  }

  fileInput.addEventListener("change", () => {
    files = [...(fileInput.files ?? [])];
    alert.dataset.kind = "";
    refreshTools();
  });
  toolSelect.addEventListener("change", refreshTool);
  formEl.addEventListener("submit", (event) => {
    event.preventDefault();
    void run();
  });
  cancelButton.addEventListener("click", () => running?.abort());

  bridge.manifests().then(
    (list) => {
      manifests = list;
      status.textContent = `${list.length} tools available.`;
      refreshTools();
    },
    (err: unknown) => {
      status.textContent = "";
      alert.dataset.kind = "run";
      alert.textContent = `The tools could not be loaded: ${(err as Error)?.message ?? err}`;
    },
  );
}
