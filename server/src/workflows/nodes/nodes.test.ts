import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { CatalogNode } from "@vektor/shared/schemas/workflow";
import { ToolError } from "@vektor/shared/tools/manifest";
import { getTool, listManifests } from "@vektor/wasm-tools";
import { contextFor, fileRef, memoryFiles } from "../testing/context";
import { catalog, checkNodeKinds, getNodeKind, NODE_KINDS } from "./index";
import { globToRegExp, matchesFilter } from "./logic-filter";
import { chosenFormats } from "./op";
import { renameFile } from "./sink-rename";
import { zipName } from "./sink-zip";
import type { NodeKind, StepResult } from "./types";

const kind = (type: string): NodeKind => {
  const k = getNodeKind(type);
  if (!k) throw new Error(`no kind ${type}`);
  return k;
};
const outputsOf = (r: StepResult) => {
  if (r.kind !== "done") throw new Error(`expected done, got ${r.kind}`);
  return r.outputs;
};

describe("node registry", () => {
  test("every tool is an op node; the fixed kinds are all there", () => {
    for (const m of listManifests()) expect(getNodeKind(`op.${m.slug}`)?.description.chargedSteps).toBe(1);
    const fixed = ["trigger.manual", "trigger.webhook", "trigger.schedule", "source.upload", "op.workflow", "logic.filter", "logic.merge", "logic.approval", "sink.download", "sink.zip", "sink.rename"];
    for (const type of fixed) expect(getNodeKind(type)?.description.chargedSteps).toBe(0);
    expect(NODE_KINDS).toHaveLength(fixed.length + listManifests().length);
    expect(getNodeKind("op.pdf.nope")).toBeUndefined();
  });

  test("start-up refuses a duplicate or malformed type", () => {
    const merge = kind("logic.merge");
    expect(() => checkNodeKinds([merge, merge])).toThrow('"logic.merge" is registered twice');
    expect(() => checkNodeKinds([{ ...merge, description: { ...merge.description, type: "Logic merge" } }])).toThrow("is not <category>.<name>");
    expect(() => checkNodeKinds([{ ...merge, description: { ...merge.description, type: "sink.merge" } }])).toThrow('category "logic"');
  });

  test("the catalog lists every kind as data matching its schema", () => {
    const nodes = catalog();
    expect(nodes).toHaveLength(NODE_KINDS.length);
    for (const node of nodes) expect(Value.Check(CatalogNode, node)).toBe(true);
    expect(nodes.find((n) => n.type === "op.pdf.merge")).toMatchObject({ category: "op", io: { accepts: ["pdf"], produces: ["pdf"], minInputs: 2, maxInputs: 100 }, chargedSteps: 1 });
    expect(nodes.find((n) => n.type === "logic.filter")).toMatchObject({ io: { accepts: "any", produces: "inputs" } });
    expect(JSON.parse(JSON.stringify(nodes.find((n) => n.type === "sink.zip")!.params))).toMatchObject({ properties: { name: { default: "outputs.zip" } } });
  });
});

describe("trigger.* and op.workflow", () => {
  test("pass on what they were given", async () => {
    const inputs = [fileRef("a.pdf", "pdf")];
    for (const type of ["trigger.manual", "trigger.webhook", "trigger.schedule", "op.workflow"]) {
      const params = type === "op.workflow" ? { workflowId: "w" } : {};
      expect(outputsOf(await kind(type).execute(contextFor(kind(type), params, { inputs }).ctx))).toEqual(inputs);
    }
  });
});

describe("source.upload", () => {
  const source = kind("source.upload");

  test("the run's files, then fixed ones, then uploads since the last run that match; each once", async () => {
    const run = fileRef("run.pdf", "pdf");
    const fixed = fileRef("fixed.pdf", "pdf");
    const old = fileRef("old-scan.PDF", "pdf", { createdAt: new Date("2024-01-01") });
    const fresh = fileRef("scan-1.PDF", "pdf", { createdAt: new Date("2025-06-01") });
    const other = fileRef("notes.txt", "txt", { createdAt: new Date("2025-06-01") });
    const mem = memoryFiles([run, fixed, old, fresh, other]);
    const since = new Date("2025-01-01");
    const { ctx, logs } = contextFor(source, { fileIds: [fixed.id, run.id, "not-mine"], sinceLastRun: true, prefix: "scan", suffix: ".pdf" }, { runInputs: [run], previousRunAt: since, files: mem.files });
    expect(outputsOf(await source.execute(ctx)).map((f) => f.filename)).toEqual(["run.pdf", "fixed.pdf", "scan-1.PDF"]);
    expect(mem.sinceAsked).toEqual([since]);
    expect(logs.join("\n")).toContain("1 of the fixed fileIds");
  });

  test("without sinceLastRun it does not look at other uploads", async () => {
    const mem = memoryFiles([fileRef("x.pdf", "pdf")]);
    const { ctx } = contextFor(source, {}, { files: mem.files });
    expect(outputsOf(await source.execute(ctx))).toEqual([]);
    expect(mem.sinceAsked).toEqual([]);
  });

  test("nested in a sub-workflow it gives its inputs, not the run's files", async () => {
    const inputs = [fileRef("from-parent.step", "step")];
    const { ctx } = contextFor(source, { sinceLastRun: true }, { nested: true, inputs, runInputs: [fileRef("run.pdf", "pdf")] });
    expect(outputsOf(await source.execute(ctx))).toEqual(inputs);
  });
});

describe("op.<tool>", () => {
  test("one job per accepted file; others skipped with a log line", async () => {
    const op = kind("op.pdf.compress");
    const a = fileRef("a.pdf", "pdf");
    const b = fileRef("b.pdf", null, { mime: "application/pdf" });
    const c = fileRef("c.step", "step");
    const { ctx, logs } = contextFor(op, { level: 3 }, { inputs: [a, c, b] });
    expect(await op.execute(ctx)).toEqual({
      kind: "jobs",
      jobs: [
        { type: "pdf.compress", inputFileIds: [a.id], params: { level: 3 } },
        { type: "pdf.compress", inputFileIds: [b.id], params: { level: 3 } },
      ],
    });
    expect(logs).toEqual(['Skipped "c.step" (step): pdf.compress accepts pdf']);
  });

  test("a tool that takes several files gets one job over all of them, within its limits", async () => {
    const op = kind("op.pdf.merge");
    const pdfs = [fileRef("1.pdf", "pdf"), fileRef("2.pdf", "pdf")];
    expect(await op.execute(contextFor(op, {}, { inputs: pdfs }).ctx)).toEqual({ kind: "jobs", jobs: [{ type: "pdf.merge", inputFileIds: pdfs.map((f) => f.id), params: {} }] });
    const one = op.execute(contextFor(op, {}, { inputs: [pdfs[0]] }).ctx);
    await expect(one).rejects.toBeInstanceOf(ToolError);
    await expect(one).rejects.toThrow("needs at least 2 files");
    const many = Array.from({ length: 101 }, (_, i) => fileRef(`${i}.pdf`, "pdf"));
    await expect(op.execute(contextFor(op, {}, { inputs: many }).ctx)).rejects.toThrow("at most 100 files");
  });

  test("no accepted file: no jobs", async () => {
    const op = kind("op.pdf.merge");
    expect(await op.execute(contextFor(op, {}, { inputs: [] }).ctx)).toEqual({ kind: "jobs", jobs: [] });
  });

  test("chosenFormats: choice params naming a produced format, not free text", () => {
    expect(chosenFormats(getTool("gis.convert")!.manifest, { to: "gpkg", csvGeometry: "wkt" })).toEqual(["gpkg"]);
    expect(chosenFormats(getTool("cad.convert")!.manifest, { format: "stl" })).toEqual(["stl"]);
    expect(chosenFormats(getTool("pdf.extract-text")!.manifest, { format: "both" })).toBeUndefined();
    expect(chosenFormats(getTool("pdf.metadata")!.manifest, { title: "pdf" })).toBeUndefined();
    expect(chosenFormats({ ...getTool("cad.convert")!.manifest, params: Type.Object({ f: Type.Union([Type.Literal("stl"), Type.Literal("obj")]) }) }, { f: "obj" })).toEqual(["obj"]);
  });
});

describe("logic.filter", () => {
  test("globToRegExp: * and ? over the whole name, case-insensitive, the rest literal", () => {
    expect(globToRegExp("*.pdf").test("Report.PDF")).toBe(true);
    expect(globToRegExp("*.pdf").test("report.pdf.txt")).toBe(false);
    expect(globToRegExp("scan-??.tif").test("scan-01.tif")).toBe(true);
    expect(globToRegExp("scan-??.tif").test("scan-1.tif")).toBe(false);
    expect(globToRegExp("a+b(1).[x]").test("a+b(1).[x]")).toBe(true);
    expect(globToRegExp("a.b").test("axb")).toBe(false);
  });

  test("matchesFilter: every condition set must hold; none set keeps everything", () => {
    const f = { filename: "plan.pdf", size: 1000, format: "pdf", mime: "application/pdf" };
    expect(matchesFilter(f, {})).toBe(true);
    expect(matchesFilter(f, { formats: ["step", "pdf"] })).toBe(true);
    expect(matchesFilter(f, { formats: ["step"] })).toBe(false);
    expect(matchesFilter({ ...f, format: null }, { formats: ["pdf"] })).toBe(true);
    expect(matchesFilter(f, { glob: "plan*", minSize: 1000, maxSize: 1000 })).toBe(true);
    expect(matchesFilter(f, { minSize: 1001 })).toBe(false);
    expect(matchesFilter(f, { maxSize: 999 })).toBe(false);
    expect(matchesFilter(f, { formats: ["pdf"], glob: "*.step" })).toBe(false);
  });

  test("execute keeps the matching inputs in order", async () => {
    const filter = kind("logic.filter");
    const inputs = [fileRef("a.pdf", "pdf", { size: 10 }), fileRef("b.step", "step", { size: 10 }), fileRef("c.pdf", "pdf", { size: 5000 })];
    const { ctx, logs } = contextFor(filter, { formats: ["pdf"], maxSize: 100 }, { inputs });
    expect(outputsOf(await filter.execute(ctx))).toEqual([inputs[0]]);
    expect(logs).toEqual(["Kept 1 of 3 file(s)"]);
  });
});

describe("logic.merge, logic.approval, sink.download", () => {
  test("merge gives each input once", async () => {
    const a = fileRef("a.pdf", "pdf");
    const b = fileRef("b.pdf", "pdf");
    expect(outputsOf(await kind("logic.merge").execute(contextFor(kind("logic.merge"), {}, { inputs: [a, b, a] }).ctx))).toEqual([a, b]);
  });

  test("approval asks to wait; 0 means the configured default", async () => {
    const approval = kind("logic.approval");
    expect(await approval.execute(contextFor(approval).ctx)).toEqual({ kind: "approval", timeoutSeconds: 0 });
    expect(await approval.execute(contextFor(approval, { timeoutSeconds: 600 }).ctx)).toEqual({ kind: "approval", timeoutSeconds: 600 });
    expect(() => contextFor(approval, { timeoutSeconds: 31_536_001 })).toThrow();
  });

  test("download gives its inputs", async () => {
    const inputs = [fileRef("a.glb", "glb")];
    expect(outputsOf(await kind("sink.download").execute(contextFor(kind("sink.download"), {}, { inputs }).ctx))).toEqual(inputs);
  });
});

describe("sink.zip", () => {
  test("zipName: safe, .zip added when missing", () => {
    expect(zipName("outputs.zip")).toBe("outputs.zip");
    expect(zipName("Report.ZIP")).toBe("Report.ZIP");
    expect(zipName("../../etc/passwd")).toBe("_._etc_passwd.zip");
    expect(zipName("..")).toBe("outputs.zip");
  });

  test("packs the inputs into one file under the default name; nothing to pack, no zip", async () => {
    const zip = kind("sink.zip");
    const mem = memoryFiles();
    const inputs = [fileRef("a.pdf", "pdf"), fileRef("b.pdf", "pdf")];
    const out = outputsOf(await zip.execute(contextFor(zip, {}, { inputs, files: mem.files }).ctx));
    expect(out.map((f) => f.filename)).toEqual(["outputs.zip"]);
    expect(mem.created).toEqual([{ how: "zip", file: out[0], from: inputs }]);
    expect(outputsOf(await zip.execute(contextFor(zip, { name: "x" }, { files: mem.files }).ctx))).toEqual([]);
    expect(mem.created).toHaveLength(1);
  });
});

describe("sink.rename", () => {
  const at = new Date("2025-03-04T23:59:00Z");

  test("renameFile: placeholders", () => {
    expect(renameFile("{name}{ext}", "plan.v2.pdf", 1, at)).toBe("plan.v2.pdf");
    expect(renameFile("{date}-{index}-{name}{ext}", "plan.pdf", 3, at)).toBe("2025-03-04-3-plan.pdf");
    expect(renameFile("{name}-copy{ext}", "README", 1, at)).toBe("README-copy");
    expect(renameFile("{name}{ext}", ".env", 1, at)).toBe("env");
  });

  test("renameFile: the result is made safe", () => {
    expect(renameFile("../{name}{ext}", "a.pdf", 1, at)).toBe("_a.pdf");
    expect(renameFile("x/y\\z{ext}", "a.pdf", 1, at)).toBe("x_y_z.pdf");
    expect(renameFile("a\u0000\u001fb..c{ext}", "f.pdf", 1, at)).toBe("ab.c.pdf");
    expect(renameFile("..", "f.pdf", 1, at)).toBe("f.pdf");
    expect(renameFile("{name}", "x".repeat(300) + ".pdf", 1, at)).toHaveLength(200);
  });

  test("execute copies each input under its new name; an unchanged name is the file itself", async () => {
    const rename = kind("sink.rename");
    const mem = memoryFiles();
    const a = fileRef("a.pdf", "pdf");
    const b = fileRef("b.pdf", "pdf");
    const out = outputsOf(await rename.execute(contextFor(rename, { pattern: "{name}-{index}{ext}" }, { inputs: [a, b], files: mem.files }).ctx));
    expect(out.map((f) => f.filename)).toEqual(["a-1.pdf", "b-2.pdf"]);
    expect(mem.created.map((c) => c.from[0].id)).toEqual([a.id, b.id]);
    expect(outputsOf(await rename.execute(contextFor(rename, {}, { inputs: [a], files: mem.files }).ctx))).toEqual([a]);
    expect(mem.created).toHaveLength(2);
  });
});
