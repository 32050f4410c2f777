/** The Convert screen's reducer and run plan (tool-run.ts), with the real registry's tools and real files. */
import { listManifests } from "@vektor/wasm-tools";
import { makeTextPdf } from "@vektor/wasm-tools/testing/pdf-fixtures";
import { describe, expect, test } from "vitest";
import { detailOf } from "../../../../server/src/tools/catalog";
import { choiceLabel, readParams } from "../../components/params-form";
import { mergeTools } from "../../tools/catalog";
import type { Result } from "./runs";
import { deriveRun, initialToolRun, modeFor, toolRun, type RunFacts, type ToolRunAction, type ToolRunState } from "./tool-run";

const manifests = listManifests();
const tools = mergeTools(manifests, manifests.map((m) => detailOf(m, 1024 * 1024 * 1024)));
const facts: RunFacts = { tools, browserMaxBytes: 50 * 1024 * 1024, memoryBudget: 4 * 1024 * 1024 * 1024, cloudEnabled: true, online: true, signedIn: true };
const pdf = new File([(await makeTextPdf(2)) as Uint8Array<ArrayBuffer>], "report.pdf", { type: "application/pdf" });
const result: Result = { name: "report.pdf", size: 10, mime: "application/pdf", href: "blob:x", local: true, read: async () => new Blob() };

/** The state after `actions`, from the start. */
const after = (...actions: ToolRunAction[]): ToolRunState => actions.reduce(toolRun, initialToolRun());
const started = (engine: "device" | "server" = "device", units = ["report.pdf"]): ToolRunAction => ({ type: "started", running: { controller: new AbortController(), title: "Compress PDF", engine }, units });
const finished = (results: Result[], ms: number): ToolRunAction[] => [{ type: "unit-done", unit: 0, results }, { type: "finished", ms }];
const pdf2 = new File([pdf], "other.pdf", { type: "application/pdf" });
const pdf3 = new File([pdf], "third.pdf", { type: "application/pdf" });

describe("toolRun", () => {
  test("the tool count replaces the loading line once, never a run's status", () => {
    expect(after({ type: "catalog-settled", count: 25 }).status).toBe("25 tools available.");
    expect(after(started(), { type: "catalog-settled", count: 25 }).status).toBe("Running Compress PDF on this device…");
  });

  test("new files reset the engine choice, a device failure and the alert; not while a run is under way", () => {
    const failed = after(started(), { type: "failed", code: "WORKER_CRASHED", message: "gone", serverBlocked: null }, { type: "pick-engine", engine: "device" });
    expect(failed).toMatchObject({ deviceFailed: true, picked: "device" });
    expect(toolRun(failed, { type: "choose-files", files: [pdf] })).toMatchObject({ files: [pdf], picked: null, deviceFailed: false, alert: "" });
    expect(after(started(), { type: "choose-files", files: [pdf] }).files).toEqual([]);
  });

  test("another tool starts from its defaults", () => {
    const typed = after({ type: "set-value", key: "level", value: "9" });
    expect(typed.values).toEqual({ level: "9" });
    expect(toolRun(typed, { type: "choose-tool", slug: "pdf.metadata" })).toMatchObject({ slug: "pdf.metadata", values: {} });
  });

  test("a run: started, progress with the tool's words, done with the count and the time", () => {
    const running = after({ type: "refused", message: "Level must be a whole number" }, started());
    expect(running).toMatchObject({ alert: "", progress: 0, status: "Running Compress PDF on this device…" });
    const moving = toolRun(running, { type: "progress", fraction: 0.426, message: "rewriting" });
    expect(moving).toMatchObject({ progress: 43, status: "Compress PDF: rewriting" });
    expect(toolRun(moving, { type: "progress", fraction: 0.5 }).status).toBe("Compress PDF: rewriting");
    const done = finished([result], 1234).reduce(toolRun, moving);
    expect(done).toMatchObject({ running: null, progress: 100, results: [result], status: "Done on this device in 1.2 s: 1 file ready to download." });
  });

  test("nothing from a run that is over moves the screen", () => {
    const done = after(started("server"), ...finished([result, result], 50));
    expect(done.status).toBe("Done on the server in 0.1 s: 2 files ready to download.");
    expect(toolRun(done, { type: "progress", fraction: 0.1, message: "late" })).toBe(done);
    expect(toolRun(done, { type: "failed", code: "TOOL_FAILED", message: "late", serverBlocked: null })).toBe(done);
  });

  test("a cancelled run says so and alerts nothing", () => {
    expect(after(started(), { type: "failed", code: "CANCELLED", message: "The run was cancelled", serverBlocked: null })).toMatchObject({ running: null, status: "Cancelled.", alert: "" });
  });

  test("a tool's error on either engine is the alert", () => {
    expect(after(started("server"), { type: "failed", code: "INPUT_INVALID", message: "Not a PDF", serverBlocked: null })).toMatchObject({ status: "Failed on the server.", alert: "Not a PDF", deviceFailed: false });
  });

  test("this device giving up offers the server, or says why it cannot", () => {
    const crashed = after(started(), { type: "pick-engine", engine: "device" }, { type: "failed", code: "WORKER_CRASHED", message: "The tool worker crashed", serverBlocked: null });
    expect(crashed).toMatchObject({ deviceFailed: true, picked: null, status: "Failed on this device." });
    expect(crashed.alert).toBe("This device could not run Compress PDF: The tool worker crashed. Press Run to run it on the server.");
    const signedOut = after(started(), { type: "failed", code: "TOOL_FAILED", message: "Out of memory", serverBlocked: "Sign in to run tools on the server." });
    expect(signedOut.alert).toBe("This device could not run Compress PDF: Out of memory. Sign in to run tools on the server.");
  });
});

describe("deriveRun", () => {
  test("no files: no tool, nothing to run", () => {
    expect(deriveRun(initialToolRun(), facts)).toMatchObject({ choices: [], tool: undefined, fields: [], engine: "device", canRun: false });
  });

  test("a PDF: the first PDF tool, its fields, on this device", () => {
    const plan = deriveRun(after({ type: "choose-files", files: [pdf] }), facts);
    expect(plan.choices.every((t) => t.accepts.includes("pdf"))).toBe(true);
    expect(plan.tool).toBe(plan.choices[0]);
    expect(plan.fields.map((f) => f.key)).toEqual(Object.keys((plan.tool!.params.properties ?? {}) as object));
    expect(plan).toMatchObject({ engine: "device", problem: null, canRun: true });
  });

  test("the tool picked, if it fits the files; a tool that cannot take this many files is not offered", () => {
    const merge = deriveRun(after({ type: "choose-files", files: [pdf] }, { type: "choose-tool", slug: "pdf.merge" }), facts);
    expect(merge.choices.map((t) => t.slug)).not.toContain("pdf.merge");
    expect(merge.tool?.slug).toBe(merge.choices[0]!.slug);
    const two = deriveRun(after({ type: "choose-files", files: [pdf, pdf2] }, { type: "choose-tool", slug: "pdf.merge" }), facts);
    expect(two).toMatchObject({ tool: { slug: "pdf.merge" }, mode: "all", problem: null, canRun: true });
    const unknown = deriveRun(after({ type: "choose-files", files: [pdf] }, { type: "choose-tool", slug: "pointcloud.info" }), facts);
    expect(unknown.tool?.slug).toBe(unknown.choices[0]!.slug);
  });

  test("the engine: picked over automatic; a blocked one cannot run; none while a run is under way", () => {
    const withPdf = after({ type: "choose-files", files: [pdf] });
    expect(deriveRun(withPdf, { ...facts, browserMaxBytes: 10 }).engine).toBe("server");
    expect(deriveRun(toolRun(withPdf, { type: "pick-engine", engine: "server" }), facts)).toMatchObject({ engine: "server", canRun: true });
    expect(deriveRun(toolRun(withPdf, { type: "pick-engine", engine: "server" }), { ...facts, signedIn: false })).toMatchObject({
      blocked: { device: null, server: "Sign in to run tools on the server." },
      canRun: false,
    });
    expect(deriveRun(toolRun(withPdf, started()), facts).canRun).toBe(false);
  });
});

describe("the privacy hint follows the engine in use", () => {
  const withPdf = after({ type: "choose-files", files: [pdf] });
  test("automatic: this device; picked or running on the server: the files are uploaded", () => {
    expect(deriveRun(withPdf, facts).engineHint).toBe("Your files stay on this device.");
    const server = toolRun(withPdf, { type: "pick-engine", engine: "server" });
    expect(deriveRun(server, facts).engineHint).toBe("Your files are uploaded to the server and run there.");
    expect(deriveRun(toolRun(server, started("server")), facts)).toMatchObject({ engine: "server", engineHint: "Your files are uploaded to the server and run there." });
  });
  test("the server chosen automatically says why, and where the files go; a blocked engine says why not", () => {
    expect(deriveRun(withPdf, { ...facts, browserMaxBytes: 10 }).engineHint).toBe("A file is over 10 bytes, the most this device runs. Your files are uploaded to the server and run there.");
    const server = toolRun(withPdf, { type: "pick-engine", engine: "server" });
    expect(deriveRun(server, { ...facts, online: false }).engineHint).toBe("The server needs a network connection; you are offline.");
  });
});

describe("a new choice starts a clean slate", () => {
  const failedRun = after({ type: "catalog-settled", count: 25 }, { type: "choose-files", files: [pdf] }, started("server"), ...finished([result], 10), started("server"), { type: "progress", fraction: 0.4 }, {
    type: "failed",
    code: "TOOL_FAILED",
    message: "Not a PDF",
    serverBlocked: null,
  });
  test("a run starts without the last run's results", () => {
    expect(failedRun).toMatchObject({ results: [], status: "Failed on the server.", progress: 40, alert: "Not a PDF" });
  });
  test("new files or another tool: no results, bar, failure or alert left", () => {
    const clean = { results: [], units: [], progress: 0, status: "25 tools available.", alert: "" };
    expect(toolRun(failedRun, { type: "choose-files", files: [pdf2] })).toMatchObject({ ...clean, files: [pdf2] });
    expect(toolRun(failedRun, { type: "choose-tool", slug: "pdf.metadata" })).toMatchObject({ ...clean, slug: "pdf.metadata" });
    expect(toolRun(after(started(), { type: "progress", fraction: 0.5 }), { type: "choose-tool", slug: "pdf.metadata" }).progress).toBe(50);
  });
});

describe("several files", () => {
  test("tools that take one file run once per file; tools that take several, once over all; others are not offered", () => {
    const plan = deriveRun(after({ type: "choose-files", files: [pdf, pdf2, pdf3] }), facts);
    const slugs = plan.choices.map((t) => t.slug);
    expect(slugs).toContain("pdf.compress");
    expect(slugs).toContain("pdf.merge");
    expect(plan.choices.every((t) => modeFor(t, 3) !== null)).toBe(true);
    expect(plan).toMatchObject({ problem: null, canRun: true });
    expect(plan.mode).toBe(modeFor(plan.tool!, 3));
    const compress = deriveRun(after({ type: "choose-files", files: [pdf, pdf2] }, { type: "choose-tool", slug: "pdf.compress" }), facts);
    expect(compress).toMatchObject({ mode: "each", canRun: true });
  });

  test("modeFor: exactly one file never runs on none; a range takes its count", () => {
    const compress = tools.find((t) => t.slug === "pdf.compress")!;
    const merge = tools.find((t) => t.slug === "pdf.merge")!;
    expect([modeFor(compress, 1), modeFor(compress, 3), modeFor(merge, 1), modeFor(merge, 3), modeFor(merge, 101)]).toEqual(["all", "each", null, "all", null]);
  });

  test("each file has its own progress; the bar is their mean; results gather as files end", () => {
    let s = after(started("device", ["a.pdf", "b.pdf", "c.pdf"]), { type: "progress", fraction: 1, unit: 0, message: "done" });
    expect(s.status).toBe("Compress PDF, file 1 of 3 (a.pdf): done");
    s = toolRun(s, { type: "unit-done", unit: 0, results: [{ ...result, source: "a.pdf" }] });
    s = toolRun(s, { type: "progress", fraction: 0.5, unit: 1 });
    expect(s.units.map((u) => [u.state, u.progress])).toEqual([
      ["done", 100],
      ["running", 50],
      ["waiting", 0],
    ]);
    expect(s.progress).toBe(50);
    expect(s.results).toHaveLength(1);
    expect(toolRun(s, { type: "progress", fraction: 0.9, unit: 0, message: "late" })).toBe(s);
  });

  test("a file that fails leaves the others; the end names it", () => {
    const s = after(
      started("device", ["a.pdf", "b.pdf", "c.pdf"]),
      { type: "unit-done", unit: 0, results: [result] },
      { type: "unit-failed", unit: 1, message: "Not a PDF" },
      { type: "unit-done", unit: 2, results: [result] },
      { type: "finished", ms: 2000 },
    );
    expect(s).toMatchObject({ running: null, progress: 100, status: "Done on this device in 2.0 s: 2 files ready to download. 1 of 3 files failed.", alert: "b.pdf: Not a PDF" });
    const none = after(started("device", ["a.pdf", "b.pdf"]), { type: "unit-failed", unit: 0, message: "x" }, { type: "unit-failed", unit: 1, message: "y" }, { type: "finished", ms: 1 });
    expect(none).toMatchObject({ status: "Failed on this device.", alert: "a.pdf: x\nb.pdf: y" });
  });
});

describe("formats", () => {
  const geojson = new File(['{"type":"FeatureCollection","features":[]}'], "places.geojson", { type: "application/geo+json" });
  const to = (files: File[]) => deriveRun(after({ type: "choose-files", files }, { type: "choose-tool", slug: "gis.convert" }), facts).fields.find((f) => f.key === "to")!;
  test("gis.convert's target defaults away from the input's own format", () => {
    expect(to([geojson]).schema.default).toBe("gpkg");
    expect(readParams([to([geojson])], {})).toEqual({ ok: true, params: { to: "gpkg" } });
    const kml = new File(["<kml/>"], "places.kml", { type: "application/vnd.google-earth.kml+xml" });
    expect(to([kml]).schema.default).toBe("geojson");
  });
  test("format choices are shown by their human names", () => {
    expect(to([geojson]).choices!.map(choiceLabel)).toContain("Shapefile (ZIP)");
    expect([choiceLabel("geojson"), choiceLabel("wkt"), choiceLabel(9)]).toEqual(["GeoJSON", "wkt", "9"]);
  });
});
