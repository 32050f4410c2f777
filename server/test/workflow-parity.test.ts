/**
 * One graph semantics, two executors: the same graphs on the same files run through the
 * server's engine (real HTTP, queue and tool workers) and through the browser runner's core
 * (web/src/workflows/runner/core.ts) with the same wasm-tools modules the browser's worker runs,
 * here called directly in Bun. Both must give the same outputs: names, formats, and bytes (the
 * PDF tools used here are deterministic, which the device side checks by running twice); ZIPs
 * are written by different libraries, so theirs are compared entry by entry (name, STORE, bytes).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CatalogNode, Graph } from "@vektor/shared/schemas/workflow";
import { catalogKinds } from "@vektor/shared/workflows/catalog-kinds";
import { expandGraph } from "@vektor/shared/workflows/plan";
import { execute, setWasmLocator } from "@vektor/wasm-tools";
import { nodeModulesWasmLocator } from "@vektor/wasm-tools/runtime/node-wasm";
import { unzipSync } from "fflate";
import { localFile, runLocal, type LocalFile, type RunTool } from "../../web/src/workflows/runner/core";
import { makePdf } from "./fixtures";
import { graph, linear } from "./graphs";
import { startTestServer, type TestServer } from "./harness";

setWasmLocator(nodeModulesWasmLocator);

let srv: TestServer;
let c: Awaited<ReturnType<TestServer["user"]>>;
let catalog: CatalogNode[];
beforeAll(async () => {
  srv = await startTestServer({ JOB_POLL_MS: "100", TOOL_WORKERS: "2" });
  c = await srv.user();
  catalog = await c.workflows.catalog();
}, 180_000);
afterAll(() => srv?.close());

/** What is compared of an output: its name, format and content (a ZIP's content is its entries). */
interface Output {
  name: string;
  format: string | null;
  content: string | { name: string; stored: boolean; sha: string }[];
}

const sha = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/** ZIP entries with their compression method, read from the central directory. */
function zipContent(bytes: Uint8Array): Output["content"] {
  const methods = new Map<string, number>();
  unzipSync(bytes, { filter: (f) => (methods.set(f.name, f.compression), true) });
  return Object.entries(unzipSync(bytes)).map(([name, data]) => ({ name, stored: methods.get(name) === 0, sha: sha(data) }));
}

const outputOf = (name: string, format: string | null, bytes: Uint8Array): Output => ({ name, format, content: format === "zip" ? zipContent(bytes) : sha(bytes) });

/** The run's files: same names and bytes on both sides. */
type Inputs = { name: string; bytes: Uint8Array }[];

async function onServer(graphJson: string, inputs: Inputs, subWorkflows: Record<string, string> = {}): Promise<Output[]> {
  const ids = new Map<string, string>();
  for (const [key, g] of Object.entries(subWorkflows)) ids.set(key, (await c.workflows.create({ name: key, graphJson: g })).id);
  const resolved = Object.entries(Object.fromEntries(ids)).reduce((g, [key, id]) => g.replaceAll(`"${key}"`, `"${id}"`), graphJson);
  const w = await c.workflows.create({ name: "parity", graphJson: resolved });
  const fileIds = [];
  for (const f of inputs) fileIds.push((await c.files.upload(new Blob([f.bytes as Uint8Array<ArrayBuffer>]), { filename: f.name, mime: "application/pdf" })).fileId);
  const { runId } = await c.workflows.run(w.id, fileIds);
  const d = await c.workflows.waitFor(runId);
  expect(d.run.status).toBe("succeeded");
  const out: Output[] = [];
  for (const id of d.run.outputFileIds) {
    const f = await c.files.get(id);
    out.push(outputOf(f.filename, f.format, new Uint8Array(await (await c.files.download(id)).arrayBuffer())));
  }
  return out;
}

const wasmTool: RunTool = (slug, inputs, params, signal) => execute(slug, inputs, params, { signal });

async function onDevice(graphJson: string, inputs: Inputs, subWorkflows: Record<string, string> = {}): Promise<Output[]> {
  const kinds = catalogKinds(catalog);
  const plan = await expandGraph(JSON.parse(graphJson) as Graph, kinds, async (id) => (subWorkflows[id] ? (JSON.parse(subWorkflows[id]) as Graph) : null));
  const files: LocalFile[] = inputs.map((f) => localFile(f.name, "application/pdf", f.bytes.slice(), "pdf"));
  const result = await runLocal({ plan, kinds, files, runTool: wasmTool, askApproval: async () => ({ approved: true }) });
  expect({ status: result.status, error: result.error }).toEqual({ status: "succeeded", error: null });
  return Promise.all(result.outputs.map(async (f) => outputOf(f.filename, f.format, new Uint8Array(await f.blob.arrayBuffer()))));
}

/** By name: a run's outputs are a set (the server lists its sinks in the order its database returns their steps). */
const byName = (outputs: Output[]) => outputs.toSorted((a, b) => a.name.localeCompare(b.name));

/** Runs `graphJson` on both executors (the device twice: its tools must be deterministic for bytes to be compared). */
async function expectParity(graphJson: string, inputs: Inputs, subWorkflows?: Record<string, string>): Promise<Output[]> {
  const device = byName(await onDevice(graphJson, inputs, subWorkflows));
  expect(byName(await onDevice(graphJson, inputs, subWorkflows))).toEqual(device);
  expect(byName(await onServer(graphJson, inputs, subWorkflows))).toEqual(device);
  return device;
}

let pdfs: Inputs;
beforeAll(async () => {
  pdfs = [
    { name: "keep-a.pdf", bytes: await makePdf(2, "a") },
    { name: "keep-b.pdf", bytes: await makePdf(3, "b") },
    { name: "skip-c.pdf", bytes: await makePdf(1, "c") },
  ];
});

describe("the browser runner and the server engine give the same outputs", () => {
  test("filter, a per-file tool, zip", async () => {
    const g = linear(["in", "source.upload"], ["f", "logic.filter", { formats: ["pdf"], glob: "keep-*" }], ["r", "op.pdf.rotate", { degrees: 90 }], ["z", "sink.zip", { name: "rotated" }]);
    const out = await expectParity(g, pdfs);
    expect(out.map((o) => [o.name, o.format])).toEqual([["rotated.zip", "zip"]]);
    expect((out[0].content as { name: string; stored: boolean }[]).map((e) => [e.name, e.stored])).toEqual([
      ["keep-a-rotated.pdf", true],
      ["keep-b-rotated.pdf", true],
    ]);
  }, 120_000);

  test("two branches merged, renamed with a pattern, and downloaded", async () => {
    const g = graph(
      [["in", "source.upload"], ["png", "op.pdf.render-png", { dpi: 40 }], ["c", "op.pdf.compress"], ["m", "logic.merge"], ["ren", "sink.rename", { pattern: "{index}-{name}{ext}" }], ["d", "sink.download"]],
      [["in", "png"], ["in", "c"], ["png", "m"], ["c", "m"], ["m", "ren"], ["c", "d"]],
    );
    const out = await expectParity(g, pdfs.slice(0, 2));
    expect(out.map((o) => [o.name, o.format])).toEqual([
      ["1-keep-a-p1.png", "png"],
      ["2-keep-a-p2.png", "png"],
      ["3-keep-b-p1.png", "png"],
      ["4-keep-b-p2.png", "png"],
      ["5-keep-b-p3.png", "png"],
      ["6-keep-a-compressed.pdf", "pdf"],
      ["7-keep-b-compressed.pdf", "pdf"],
      ["keep-a-compressed.pdf", "pdf"],
      ["keep-b-compressed.pdf", "pdf"],
    ]);
  }, 120_000);

  test("a tool over all files at once, inside a sub-workflow", async () => {
    const child = linear(["in", "source.upload"], ["mg", "op.pdf.merge"], ["meta", "op.pdf.metadata"]);
    const g = linear(["in", "source.upload"], ["sub", "op.workflow", { workflowId: "child" }], ["d", "sink.download"]);
    const out = await expectParity(g, pdfs, { child });
    expect(out.map((o) => [o.name, o.format])).toEqual([["keep-a-merged-metadata.json", "json"]]);
  }, 120_000);
});
