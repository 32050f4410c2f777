import { listManifests } from "@vektor/wasm-tools";
import { describe, expect, it } from "vitest";
import { ENGINE_BYTES } from "../../tools/memory";
import { autoRunEngine, choiceNodes, deviceBlocked, nodeBlocker, pickReason, type ChoiceNode, type RunChoiceFacts } from "./choice";

const node = (type: string, params: Record<string, unknown> = {}): ChoiceNode => ({ id: type, type, params, title: type });
const onDevice = (slug: string) => (slug === "cad.convert" ? false : true);
const MB = 1024 * 1024;
const GB = 1024 * MB;
/** The registry's manifests as RunDialog reads them: each tool's title, family and measured memory per input byte. */
const memory = new Map(listManifests().map((m) => [m.slug, { title: m.title, family: m.family, memoryPerInputByte: m.limits?.memoryPerInputByte, blobInputs: m.io.blobInputs }]));
const facts = (nodes: ChoiceNode[], more: Partial<RunChoiceFacts> = {}): RunChoiceFacts => ({
  nodes,
  toolOnDevice: onDevice,
  sizes: [],
  browserMaxBytes: 512 * MB,
  memoryBudget: 4 * GB,
  toolMemory: (slug) => memory.get(slug),
  workerError: null,
  ...more,
});

describe("which steps run in the browser", () => {
  it("the kinds the runner has, and tools the worker offers", () => {
    for (const type of ["trigger.manual", "source.upload", "logic.filter", "logic.merge", "logic.approval", "sink.zip", "sink.rename", "sink.download", "op.workflow", "op.pdf.rotate"]) expect(nodeBlocker(node(type), onDevice)).toBeNull();
    // Not known yet (the worker still starting): assumed to run, the run itself says otherwise.
    expect(nodeBlocker(node("op.pdf.rotate"), () => undefined)).toBeNull();
  });

  it("an approval with a timeout, triggers other than manual, server files, server-only tools and unknown kinds do not", () => {
    expect(nodeBlocker(node("logic.approval", { timeoutSeconds: 60 }), onDevice)).toMatch(/with a timeout, which only the server keeps/);
    expect(nodeBlocker(node("trigger.webhook"), onDevice)).toMatch(/starts runs from the server \(webhook\)/);
    expect(nodeBlocker(node("trigger.schedule"), onDevice)).toMatch(/\(schedule\)/);
    expect(nodeBlocker(node("source.upload", { fileIds: ["f_1"] }), onDevice)).toMatch(/files stored on the server/);
    expect(nodeBlocker(node("source.upload", { sinceLastRun: true }), onDevice)).toMatch(/files stored on the server/);
    expect(nodeBlocker(node("source.upload", { sinceLastRun: false, fileIds: [] }), onDevice)).toBeNull();
    expect(nodeBlocker(node("op.cad.convert"), onDevice)).toBe('Step "op.cad.convert" runs on the server only.');
    expect(nodeBlocker(node("logic.teleport"), onDevice)).toMatch(/does not run in this browser/);
  });
});

describe("the engine chosen, always with its reason", () => {
  it("this device when everything can run here", () => {
    expect(autoRunEngine(facts([node("source.upload"), node("op.pdf.rotate")], { sizes: [512 * MB] }))).toEqual({ engine: "device", reason: expect.stringMatching(/^Runs on this device: your files are not uploaded/) });
  });

  it("the server, saying why: a step, a file over processing.browser_max_mb, the worker", () => {
    expect(autoRunEngine(facts([node("source.upload"), node("logic.approval", { timeoutSeconds: 5 })])).reason).toBe('Runs on the server: Step "logic.approval" waits for an approval with a timeout, which only the server keeps.');
    expect(autoRunEngine(facts([node("source.upload")], { sizes: [1, 512 * MB + 1] })).reason).toBe("Runs on the server: A file is over 512 MB, the most this device runs (processing.browser_max_mb).");
    expect(autoRunEngine(facts([node("source.upload")], { workerError: "WebAssembly is off" })).reason).toBe("Runs on the server: The tool worker cannot load in this browser (WebAssembly is off).");
    expect(deviceBlocked(facts([node("source.upload")]))).toBeNull();
  });

  it("the server when a step's tool would need more memory for the biggest file than this device gives a tab; picking the device stays allowed", () => {
    const metadata = memory.get("pdf.metadata")!;
    expect(metadata.blobInputs).toBeUndefined();
    // The run gives the tool the file as Convert does: the tool's own figure.
    const need = ENGINE_BYTES.pdf! + 300 * MB * metadata.memoryPerInputByte!;
    const nodes = [node("source.upload"), node("op.pdf.metadata")];
    expect(autoRunEngine(facts(nodes, { sizes: [10 * MB, 300 * MB], memoryBudget: need })).engine).toBe("device");
    const short = facts(nodes, { sizes: [10 * MB, 300 * MB], memoryBudget: need - 1 });
    expect(autoRunEngine(short).reason).toMatch(/^Runs on the server: PDF metadata on this 300 MB file needs about [\d.]+ [MG]B of memory, more than this device can give a tab \(about [\d.]+ [MG]B\)\.$/);
    expect(deviceBlocked(short)).toBeNull();
    // Tools not known yet (the worker still starting) are not checked.
    expect(autoRunEngine({ ...short, toolMemory: () => undefined }).engine).toBe("device");
  });

  it("a tool measured on a mounted File is given the File in a workflow too: its figure as measured", () => {
    const convert = memory.get("gis.convert")!;
    expect(convert.blobInputs).toBe(true);
    const need = ENGINE_BYTES.gis! + 100 * MB * convert.memoryPerInputByte!;
    const nodes = [node("source.upload"), node("op.gis.convert")];
    expect(autoRunEngine(facts(nodes, { sizes: [100 * MB], memoryBudget: need })).engine).toBe("device");
    expect(autoRunEngine(facts(nodes, { sizes: [100 * MB], memoryBudget: need - 1 })).engine).toBe("server");
  });

  it("the person's pick is said as the reason", () => {
    expect(pickReason("server")).toMatch(/^You picked the server/);
    expect(pickReason("device")).toMatch(/^You picked this device/);
  });

  it("reads a graph's nodes with their titles", () => {
    const graph = { nodes: [{ id: "a", type: "logic.filter", data: { params: { glob: "*.pdf" } } }, { id: "b", type: "sink.zip", data: {} }], edges: [] };
    expect(choiceNodes(graph, (t) => t.toUpperCase())).toEqual([
      { id: "a", type: "logic.filter", params: { glob: "*.pdf" }, title: "LOGIC.FILTER" },
      { id: "b", type: "sink.zip", params: {}, title: "SINK.ZIP" },
    ]);
  });
});
