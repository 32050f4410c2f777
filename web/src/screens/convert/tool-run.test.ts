/** The Convert screen's reducer and run plan (tool-run.ts), with the real registry's tools and real files. */
import { listManifests } from "@vektor/wasm-tools";
import { makeTextPdf } from "@vektor/wasm-tools/testing/pdf-fixtures";
import { describe, expect, test } from "vitest";
import { detailOf } from "../../../../server/src/tools/catalog";
import { mergeTools } from "../../tools/catalog";
import type { Result } from "./runs";
import { deriveRun, initialToolRun, toolRun, type RunFacts, type ToolRunAction, type ToolRunState } from "./tool-run";

const manifests = listManifests();
const tools = mergeTools(manifests, manifests.map(detailOf));
const facts: RunFacts = { tools, browserMaxBytes: 50 * 1024 * 1024, cloudEnabled: true, online: true, signedIn: true };
const pdf = new File([(await makeTextPdf(2)) as Uint8Array<ArrayBuffer>], "report.pdf", { type: "application/pdf" });
const result: Result = { name: "report.pdf", size: 10, mime: "application/pdf", href: "blob:x", local: true, read: async () => new Blob() };

/** The state after `actions`, from the start. */
const after = (...actions: ToolRunAction[]): ToolRunState => actions.reduce(toolRun, initialToolRun());
const started = (engine: "device" | "server" = "device"): ToolRunAction => ({ type: "started", running: { controller: new AbortController(), title: "Compress PDF", engine } });

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
    const done = toolRun(moving, { type: "finished", results: [result], ms: 1234 });
    expect(done).toMatchObject({ running: null, progress: 100, results: [result], status: "Done on this device in 1.2 s: 1 file ready to download." });
  });

  test("nothing from a run that is over moves the screen", () => {
    const done = after(started("server"), { type: "finished", results: [result, result], ms: 50 });
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

  test("the tool picked, if it fits the files; its input count checked", () => {
    const merge = deriveRun(after({ type: "choose-files", files: [pdf] }, { type: "choose-tool", slug: "pdf.merge" }), facts);
    expect(merge.tool?.slug).toBe("pdf.merge");
    expect(merge.problem).toMatch(/takes 2 to 100 files; 1 chosen/);
    expect(merge.canRun).toBe(false);
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
