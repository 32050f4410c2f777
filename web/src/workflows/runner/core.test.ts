import { catalogKinds } from "@vektor/shared/workflows/catalog-kinds";
import { expandGraph } from "@vektor/shared/workflows/plan";
import { chainOf, graphOf } from "@vektor/shared/workflows/testing";
import type { Graph } from "@vektor/shared/schemas/workflow";
import { ToolError } from "@vektor/shared/tools/manifest";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { CATALOG } from "../model/testing/catalog";
import { localFile, runLocal, zipFiles, type AskApproval, type LocalFile, type RunTool } from "./core";
import { endedRun, progressedRun, startedRun } from "./record";

/** The real catalog (its fixture, held to the server's registry by a server test). */
const kinds = catalogKinds(CATALOG);
const text = (s: string) => new TextEncoder().encode(s);
const file = (name: string, content = name) => localFile(name, name.endsWith(".pdf") ? "application/pdf" : "application/octet-stream", text(content));
const approve: AskApproval = async () => ({ approved: true });
/** Tools are the worker's business; these graphs only use the runner's own kinds unless they say otherwise. */
const noTools: RunTool = async (slug) => {
  throw new ToolError("TOOL_FAILED", `no tool ${slug} here`);
};

async function run(graph: Graph, files: LocalFile[], more: { runTool?: RunTool; askApproval?: AskApproval; signal?: AbortSignal } = {}) {
  const plan = await expandGraph(graph, kinds, async () => null);
  return runLocal({ plan, kinds, files, runTool: more.runTool ?? noTools, askApproval: more.askApproval ?? approve, startedAt: new Date("2025-03-04T10:00:00Z"), signal: more.signal });
}

const names = (files: readonly LocalFile[]) => files.map((f) => f.filename);
const bytesOf = async (f: LocalFile) => new Uint8Array(await f.blob.arrayBuffer());

describe("the runner core", () => {
  it("filters, renames and zips (STORE) the run's files", async () => {
    const g = chainOf(["in", "source.upload"], ["f", "logic.filter", { glob: "keep-*" }], ["z", "sink.zip", { name: "kept" }]);
    const r = await run(g, [file("keep-a.pdf", "AAA"), file("skip.pdf"), file("keep-b.pdf", "BB")]);
    expect(r.status).toBe("succeeded");
    expect(r.steps.map((s) => [s.nodeId, s.status])).toEqual([
      ["in", "succeeded"],
      ["f", "succeeded"],
      ["z", "succeeded"],
    ]);
    expect(r.steps[1].logs).toEqual(["Kept 2 of 3 file(s)"]);
    expect(names(r.outputs)).toEqual(["kept.zip"]);
    expect(r.outputs[0].format).toBe("zip");
    const entries = unzipSync(await bytesOf(r.outputs[0]));
    expect(Object.keys(entries)).toEqual(["keep-a.pdf", "keep-b.pdf"]);
    expect(new TextDecoder().decode(entries["keep-a.pdf"])).toBe("AAA");
  });

  it("branches merge without repeats; a tool runs once per file, or once over all of them", async () => {
    const calls: string[][] = [];
    const tool: RunTool = async (slug, inputs) => {
      calls.push([slug, ...inputs.map((i) => i.name)]);
      return [{ name: `${slug}-${inputs.length}.pdf`, mime: "application/pdf", bytes: text("out") }];
    };
    const g = graphOf(
      [["in", "source.upload"], ["c", "op.pdf.compress"], ["mg", "op.pdf.merge"], ["m", "logic.merge"], ["d", "sink.download"]],
      [["in", "c"], ["in", "mg"], ["c", "m"], ["mg", "m"], ["in", "m"], ["m", "d"]],
    );
    const r = await run(g, [file("a.pdf"), file("b.pdf"), file("c.png")], { runTool: tool });
    expect(calls).toEqual([["pdf.compress", "a.pdf"], ["pdf.compress", "b.pdf"], ["pdf.merge", "a.pdf", "b.pdf"]]);
    expect(r.steps.find((s) => s.nodeId === "c")!.logs).toEqual(['Skipped "c.png" (png): pdf.compress accepts pdf']);
    expect(names(r.outputs)).toEqual(["pdf.compress-1.pdf", "pdf.compress-1.pdf", "pdf.merge-2.pdf", "a.pdf", "b.pdf", "c.png"]);
  });

  it("a failed step fails the run with its code; what had not run is skipped", async () => {
    const g = chainOf(["in", "source.upload"], ["mg", "op.pdf.merge"], ["d", "sink.download"]);
    const r = await run(g, [file("only.pdf")]);
    expect(r.status).toBe("failed");
    expect(r.error).toEqual({ code: "INPUT_INVALID", message: "Step mg: pdf.merge needs at least 2 files; this step got 1" });
    expect(r.steps.map((s) => s.status)).toEqual(["succeeded", "failed", "skipped"]);
  });

  it("an approval asks in the page: approved, the files pass on; rejected, the run fails with APPROVAL_REJECTED", async () => {
    const g = chainOf(["in", "source.upload"], ["ok", "logic.approval"], ["d", "sink.download"]);
    const asked: string[][] = [];
    const yes = await run(g, [file("a.pdf")], { askApproval: async (ask) => (asked.push([ask.nodeId, ...names(ask.files)]), { approved: true }) });
    expect(asked).toEqual([["ok", "a.pdf"]]);
    expect(names(yes.outputs)).toEqual(["a.pdf"]);
    const no = await run(g, [file("a.pdf")], { askApproval: async () => ({ approved: false, note: "not these" }) });
    expect(no.error).toEqual({ code: "APPROVAL_REJECTED", message: "Step ok: Rejected: not these" });
  });

  it("a cancelled run stops and says so", async () => {
    const controller = new AbortController();
    const g = chainOf(["in", "source.upload"], ["ok", "logic.approval"], ["d", "sink.download"]);
    const r = await run(g, [file("a.pdf")], { signal: controller.signal, askApproval: async () => (controller.abort(), { approved: true }) });
    expect(r.status).toBe("cancelled");
    expect(r.steps.map((s) => s.status)).toEqual(["succeeded", "succeeded", "skipped"]);
  });

  it("zipFiles names entries as the server does: flat and unique", async () => {
    const zip = await zipFiles("all.zip", [file("a.pdf", "1"), file("A.pdf", "2"), file("../x.pdf", "3")]);
    expect(Object.keys(unzipSync(await bytesOf(zip)))).toEqual(["a.pdf", "A (2).pdf", "_x.pdf"]);
  });

  // Seconds of copying on a slow machine: a generous limit, no duration asserted.
  it("zipFiles writes files bigger than its pieces whole, byte for byte", { timeout: 60_000 }, async () => {
    // 20 MB of varied bytes: the ZIP is gathered into its Blob in 16 MB pieces along the way.
    const big = new Uint8Array(20 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
    const zip = await zipFiles("all.zip", [localFile("big.bin", "application/octet-stream", big), file("small.txt", "tail")]);
    const entries = unzipSync(await bytesOf(zip));
    expect(entries["big.bin"].byteLength).toBe(big.byteLength);
    expect(Buffer.compare(entries["big.bin"], big)).toBe(0);
    expect(new TextDecoder().decode(entries["small.txt"])).toBe("tail");
    expect(zip.size).toBe(zip.blob.size);
  });

  it("a tool is given each file as its Blob and its first bytes, never a copy of it whole", async () => {
    const big = localFile("big.pdf", "application/pdf", new Uint8Array(200 * 1024).fill(37));
    const seen: { blob?: Blob; head: number; size?: number }[] = [];
    const tool: RunTool = async (_slug, inputs) => {
      seen.push(...inputs.map((i) => ({ blob: i.blob, head: i.bytes.byteLength, size: i.size })));
      return [{ name: "out.pdf", mime: "application/pdf", bytes: text("out") }];
    };
    const r = await run(chainOf(["in", "source.upload"], ["c", "op.pdf.compress"], ["d", "sink.download"]), [big], { runTool: tool });
    expect(r.status).toBe("succeeded");
    expect(seen).toEqual([{ blob: big.blob, head: 64 * 1024, size: 200 * 1024 }]);
    expect(r.outputs[0].blob).toBeInstanceOf(Blob);
    expect(await r.outputs[0].blob.text()).toBe("out");
  });

  it("an output that comes as a File (written to disk by the tool worker, bytes empty) goes on as that File, typed, to the next step", async () => {
    const onDisk = new File(["a,b\n1,2\n"], "0.csv");
    const seen: { blob?: Blob; size?: number; head: string }[] = [];
    const tool: RunTool = async (slug, inputs) => {
      if (slug === "gis.convert") return [{ name: "sites.csv", mime: "text/csv", bytes: new Uint8Array(0), blob: onDisk }];
      seen.push(...inputs.map((i) => ({ blob: i.blob, size: i.size, head: new TextDecoder().decode(i.bytes) })));
      return [{ name: "sites.geojson", mime: "application/geo+json", bytes: text("{}") }];
    };
    const graph = chainOf(["in", "source.upload"], ["c", "op.gis.convert"], ["r", "op.gis.reproject"], ["d", "sink.download"]);
    const r = await run(graph, [file("sites.geojson", "{}")], { runTool: tool });
    expect(r.status).toBe("succeeded");
    expect(seen).toEqual([{ blob: expect.any(Blob), size: 8, head: "a,b\n1,2\n" }]);
    expect(seen[0].blob!.type).toBe("text/csv");
    expect(await seen[0].blob!.text()).toBe("a,b\n1,2\n");
  });
});

describe("what is kept of a device run", () => {
  it("steps, statuses and output names, never bytes", async () => {
    const g = chainOf(["in", "source.upload"], ["z", "sink.zip"]);
    const plan = await expandGraph(g, kinds, async () => null);
    const header = { id: "dev_1", workflowId: "w_1", workflowName: "Zip it", versionId: "v_1", createdAt: new Date("2025-03-04T10:00:00Z") };
    const inputs = [file("a.pdf")];
    const started = startedRun(header, plan, inputs, (t) => `T ${t}`);
    expect(started).toMatchObject({ id: "dev_1", engine: "device", status: "running", inputs: [{ name: "a.pdf", size: 5, format: "pdf" }] });
    expect(started.steps.map((s) => [s.title, s.status])).toEqual([
      ["T source.upload", "pending"],
      ["T sink.zip", "pending"],
    ]);
    const result = await runLocal({ plan, kinds, files: inputs, runTool: noTools, askApproval: approve });
    expect(progressedRun(started, [{ ...result.steps[0], status: "waiting_approval" }], (t) => t).status).toBe("waiting_approval");
    const ended = endedRun(started, result, (t) => t, new Date("2025-03-04T10:00:05Z"));
    expect(ended).toMatchObject({ status: "succeeded", finishedAt: "2025-03-04T10:00:05.000Z", outputs: [{ name: "outputs.zip", format: "zip" }] });
    expect(ended.steps[1].outputs).toEqual(["outputs.zip"]);
    expect(JSON.stringify(ended)).not.toContain("bytes");
  });
});
