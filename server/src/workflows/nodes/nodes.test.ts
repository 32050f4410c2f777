import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { CatalogNode } from "@vektor/shared/schemas/workflow";
import { ToolError } from "@vektor/shared/tools/manifest";
import { getTool, listManifests } from "@vektor/wasm-tools";
import yauzl from "yauzl";
import { fileRef, openTestStorage, type TestStorage, type TestUser } from "../testing/context";
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

// One real database and object store for the file (PGlite's initdb takes seconds; longer on a busy machine).
let storage: TestStorage;
/** The owner of the steps that only pass references along. */
let me: TestUser;
beforeAll(async () => {
  storage = await openTestStorage();
  me = await storage.user();
}, 180_000);
afterAll(() => storage?.close());

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A ZIP's entries in order: name, compression method and content as text. */
function zipEntries(bytes: Uint8Array): Promise<{ name: string; method: number; content: string }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: { name: string; method: number; content: string }[] = [];
      zip.on("entry", (e: yauzl.Entry) => {
        zip.openReadStream(e, async (streamErr, stream) => {
          if (streamErr || !stream) return reject(streamErr);
          const data = Buffer.concat(await Array.fromAsync(stream as AsyncIterable<Buffer>));
          out.push({ name: e.fileName, method: e.compressionMethod, content: data.toString("utf8") });
          zip.readEntry();
        });
      });
      zip.on("end", () => resolve(out));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

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
      expect(outputsOf(await kind(type).execute(me.contextFor(kind(type), params, { inputs }).ctx))).toEqual(inputs);
    }
  });
});

describe("source.upload", () => {
  const source = kind("source.upload");
  const since = new Date("2025-01-01");
  const after = new Date("2025-06-01");
  const pdf = { mime: "application/pdf" };

  test("the run's files, then fixed ones, then uploads since the last run that match; each once", async () => {
    const u = await storage.user();
    const run = await u.upload("scan-run.pdf", "run", { ...pdf, uploadedAt: new Date("2025-05-01") });
    const fixed = await u.upload("fixed.pdf", "fixed", { ...pdf, uploadedAt: new Date("2024-06-01") });
    const old = await u.upload("scan-0.pdf", "old", { ...pdf, uploadedAt: new Date("2024-12-31") });
    const fresh = await u.upload("scan-1.PDF", "fresh", { ...pdf, uploadedAt: after });
    await u.upload("scan-2.txt", "wrong suffix", { uploadedAt: after });
    await u.upload("my-scan.pdf", "wrong prefix", { ...pdf, uploadedAt: after });
    await u.upload("scan-out.pdf", "an output", { ...pdf, uploadedAt: after, jobId: "j_someone" });
    const pending = await u.upload("scan-pending.pdf", "not confirmed", { ...pdf, status: "PENDING" });
    const theirs = await (await storage.user()).upload("scan-theirs.pdf", "theirs", { ...pdf, uploadedAt: after });
    const params = { fileIds: [fixed.id, run.id, theirs.id, "not-mine", pending.id], sinceLastRun: true, prefix: "scan", suffix: ".pdf" };
    const { ctx, logs } = u.contextFor(source, params, { runInputs: [run], previousRunAt: since });
    const out = outputsOf(await source.execute(ctx));
    expect(out.map((f) => f.filename)).toEqual(["scan-run.pdf", "fixed.pdf", "scan-1.PDF"]);
    expect(out.map((f) => f.id)).toEqual([run.id, fixed.id, fresh.id]);
    expect(logs.join("\n")).toContain("3 of the fixed fileIds");
    // scan-run.pdf matches too: counted among the uploads, given once.
    expect(logs.join("\n")).toContain(`2 file(s) uploaded since ${since.toISOString()} match`);
    // The first run (no previous one) takes every matching upload, oldest first.
    const first = u.contextFor(source, { sinceLastRun: true, prefix: "scan", suffix: ".pdf" }, { previousRunAt: null });
    expect(outputsOf(await source.execute(first.ctx)).map((f) => f.id)).toEqual([old.id, run.id, fresh.id]);
  });

  test("without sinceLastRun it does not look at other uploads", async () => {
    const u = await storage.user();
    await u.upload("x.pdf", "x", pdf);
    const { ctx, logs } = u.contextFor(source, {});
    expect(outputsOf(await source.execute(ctx))).toEqual([]);
    expect(logs).toEqual([]);
  });

  test("nested in a sub-workflow it gives its inputs, not the run's files", async () => {
    const u = await storage.user();
    await u.upload("scan.pdf", "an upload", pdf);
    const inputs = [await u.upload("from-parent.step", "solid")];
    const { ctx } = u.contextFor(source, { sinceLastRun: true }, { nested: true, inputs, runInputs: [await u.upload("run.pdf", "run", pdf)] });
    expect(outputsOf(await source.execute(ctx))).toEqual(inputs);
  });
});

describe("op.<tool>", () => {
  test("one job per accepted file; others skipped with a log line", async () => {
    const op = kind("op.pdf.compress");
    const a = fileRef("a.pdf", "pdf");
    const b = fileRef("b.pdf", null, { mime: "application/pdf" });
    const c = fileRef("c.step", "step");
    const { ctx, logs } = me.contextFor(op, { level: 3 }, { inputs: [a, c, b] });
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
    expect(await op.execute(me.contextFor(op, {}, { inputs: pdfs }).ctx)).toEqual({ kind: "jobs", jobs: [{ type: "pdf.merge", inputFileIds: pdfs.map((f) => f.id), params: {} }] });
    const one = op.execute(me.contextFor(op, {}, { inputs: [pdfs[0]] }).ctx);
    await expect(one).rejects.toBeInstanceOf(ToolError);
    await expect(one).rejects.toThrow("needs at least 2 files");
    const many = Array.from({ length: 101 }, (_, i) => fileRef(`${i}.pdf`, "pdf"));
    await expect(op.execute(me.contextFor(op, {}, { inputs: many }).ctx)).rejects.toThrow("at most 100 files");
  });

  test("no accepted file: no jobs", async () => {
    const op = kind("op.pdf.merge");
    expect(await op.execute(me.contextFor(op, {}, { inputs: [] }).ctx)).toEqual({ kind: "jobs", jobs: [] });
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
    const { ctx, logs } = me.contextFor(filter, { formats: ["pdf"], maxSize: 100 }, { inputs });
    expect(outputsOf(await filter.execute(ctx))).toEqual([inputs[0]]);
    expect(logs).toEqual(["Kept 1 of 3 file(s)"]);
  });
});

describe("logic.merge, logic.approval, sink.download", () => {
  test("merge gives each input once", async () => {
    const a = fileRef("a.pdf", "pdf");
    const b = fileRef("b.pdf", "pdf");
    expect(outputsOf(await kind("logic.merge").execute(me.contextFor(kind("logic.merge"), {}, { inputs: [a, b, a] }).ctx))).toEqual([a, b]);
  });

  test("approval asks to wait; 0 means the configured default", async () => {
    const approval = kind("logic.approval");
    expect(await approval.execute(me.contextFor(approval).ctx)).toEqual({ kind: "approval", timeoutSeconds: 0 });
    expect(await approval.execute(me.contextFor(approval, { timeoutSeconds: 600 }).ctx)).toEqual({ kind: "approval", timeoutSeconds: 600 });
    expect(() => me.contextFor(approval, { timeoutSeconds: 31_536_001 })).toThrow();
  });

  test("download gives its inputs", async () => {
    const inputs = [fileRef("a.glb", "glb")];
    expect(outputsOf(await kind("sink.download").execute(me.contextFor(kind("sink.download"), {}, { inputs }).ctx))).toEqual(inputs);
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
    const u = await storage.user();
    const a = await u.upload("a.pdf", "%PDF-1.7 first", { mime: "application/pdf" });
    const b = await u.upload("b.pdf", "%PDF-1.7 the second one", { mime: "application/pdf" });
    const out = outputsOf(await zip.execute(u.contextFor(zip, {}, { inputs: [a, b], files: u.files("j_zip") }).ctx));
    expect(out.map((f) => f.filename)).toEqual(["outputs.zip"]);
    expect(out[0]).toMatchObject({ mime: "application/zip", format: "zip" });
    const bytes = await storage.bytes(out[0]);
    expect(out[0].size).toBe(bytes.length);
    expect(await storage.row(out[0])).toMatchObject({ userId: u.id, status: "UPLOADED", jobId: "j_zip", sourceFileId: a.id, size: bytes.length, checksum: new Bun.CryptoHasher("sha256").update(bytes).digest("hex") });
    expect(await zipEntries(bytes)).toEqual([
      { name: "a.pdf", method: 0, content: "%PDF-1.7 first" },
      { name: "b.pdf", method: 0, content: "%PDF-1.7 the second one" },
    ]);
    expect(outputsOf(await zip.execute(u.contextFor(zip, { name: "x" }).ctx))).toEqual([]);
    expect((await u.fileIds()).sort()).toEqual([a.id, b.id, out[0].id].sort());
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
    const u = await storage.user();
    const a = await u.upload("a.pdf", "bytes of a", { mime: "application/pdf" });
    const b = await u.upload("b.pdf", "bytes of b, longer", { mime: "application/pdf" });
    // A format a name does not tell (a .zip could be several): the copy keeps what the upload was found to be.
    const c = await u.upload("board.zip", "gerber layers", { mime: "application/zip", format: "gerber-zip" });
    const out = outputsOf(await rename.execute(u.contextFor(rename, { pattern: "{name}-{index}{ext}" }, { inputs: [a, b, c], files: u.files("j_rename") }).ctx));
    expect(out.map((f) => f.filename)).toEqual(["a-1.pdf", "b-2.pdf", "board-3.zip"]);
    for (const [i, from] of [a, b, c].entries()) {
      expect(out[i].id).not.toBe(from.id);
      expect(out[i]).toMatchObject({ mime: from.mime, format: from.format, size: from.size });
      expect(text(await storage.bytes(out[i]))).toBe(text(await storage.bytes(from)));
      expect(await storage.row(out[i])).toMatchObject({ userId: u.id, status: "UPLOADED", jobId: "j_rename", sourceFileId: from.id });
      expect((await storage.row(from)).filename).toBe(from.filename);
    }
    expect(outputsOf(await rename.execute(u.contextFor(rename, {}, { inputs: [a] }).ctx))).toEqual([a]);
    expect((await u.fileIds()).sort()).toEqual([a.id, b.id, c.id, ...out.map((f) => f.id)].sort());
  });
});
