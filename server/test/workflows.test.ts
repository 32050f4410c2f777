/**
 * Workflows over real HTTP: definitions, versions, templates, estimate, validation, and runs
 * through the engine on the queue (linear, diamond in parallel, approvals, sub-workflows,
 * retry, replay, cancel with refund), with every bad input the issue lists.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import yauzl from "yauzl";
import { expectApiError, startTestServer, waitFor, type TestServer } from "./harness";
import { graph, linear, type NodeSpec } from "./graphs";
import { makePdf } from "./fixtures";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ JOB_POLL_MS: "100", TOOL_WORKERS: "2" });
});
afterAll(() => srv.close());

type Client = Awaited<ReturnType<TestServer["user"]>>;

async function pdf(c: Client, name = "doc.pdf", pages = 2) {
  return (await c.files.upload(new Blob([await makePdf(pages, name)]), { filename: name, mime: "application/pdf" })).fileId;
}

async function balance(c: Client) {
  return (await c.account()).credits;
}

function zipEntries(bytes: Uint8Array): Promise<{ name: string; method: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: { name: string; method: number }[] = [];
      zip.on("entry", (e: yauzl.Entry) => {
        out.push({ name: e.fileName, method: e.compressionMethod });
        zip.readEntry();
      });
      zip.on("end", () => resolve(out));
      zip.readEntry();
    });
  });
}

describe("workflow definitions", () => {
  test("create, get, list, update (a version per change), versions, restore, delete", async () => {
    const c = await srv.user();
    const g1 = linear(["in", "source.upload"], ["c", "op.pdf.compress"], ["out", "sink.download"]);
    const w = await c.workflows.create({ name: "Compress", graphJson: g1 });
    expect(w).toMatchObject({ name: "Compress", graphJson: g1, paramsJson: null });
    expect(await c.workflows.get(w.id)).toEqual(w);
    const g2 = linear(["in", "source.upload"], ["r", "op.pdf.rotate", { degrees: 90 }], ["out", "sink.download"]);
    const w2 = await c.workflows.update(w.id, { name: "Rotate", graphJson: g2 });
    expect(w2.versionId).not.toBe(w.versionId);
    const versions = await c.workflows.versions(w.id);
    expect(versions.map((v) => v.versionId)).toEqual([w2.versionId, w.versionId]);
    expect(await c.workflows.version(w.id, w.versionId)).toMatchObject({ versionId: w.versionId, name: "Compress", graphJson: g1, paramsJson: null, notifySecretSet: false, current: false });
    expect(await c.workflows.version(w.id, w2.versionId)).toMatchObject({ name: "Rotate", graphJson: g2, current: true });
    const restored = await c.workflows.restore(w.id, w.versionId);
    expect(restored).toMatchObject({ name: "Compress", graphJson: g1 });
    expect(restored.versionId).not.toBe(w.versionId);
    expect((await c.workflows.versions(w.id)).length).toBe(3);
    const page1 = await c.workflows.list({ limit: 1 });
    expect(page1.items.map((x) => x.id)).toEqual([w.id]);
    expect(page1.nextCursor).toBeNull();
    await c.workflows.delete(w.id);
    await expectApiError(() => c.workflows.get(w.id), "NOT_FOUND", 404);
  });

  test("the list is paginated, newest first", async () => {
    const c = await srv.user();
    const g = linear(["in", "source.upload"], ["out", "sink.download"]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await c.workflows.create({ name: `w${i}`, graphJson: g })).id);
    const a = await c.workflows.list({ limit: 2 });
    const b = await c.workflows.list({ limit: 2, cursor: a.nextCursor! });
    expect([...a.items, ...b.items].map((w) => w.id)).toEqual(ids.reverse());
    expect(b.nextCursor).toBeNull();
  });

  test("estimate counts tool steps, sub-workflows included", async () => {
    const c = await srv.user();
    const child = await c.workflows.create({ name: "child", graphJson: linear(["in", "source.upload"], ["a", "op.pdf.compress"], ["b", "op.pdf.rotate"]) });
    const parent = await c.workflows.create({ name: "parent", graphJson: linear(["in", "source.upload"], ["x", "op.pdf.compress"], ["sub", "op.workflow", { workflowId: child.id }], ["out", "sink.zip"]) });
    expect(await c.workflows.estimate(parent.id)).toEqual({ credits: 4, steps: 3, maxSteps: 25 });
  });

  test("the catalog lists every node kind and one op node per tool", async () => {
    const c = await srv.user();
    const types = (await c.workflows.catalog()).map((n) => n.type);
    for (const t of ["source.upload", "logic.filter", "logic.merge", "logic.approval", "op.workflow", "sink.download", "sink.zip", "sink.rename", "trigger.manual", "op.pdf.compress", "op.cad.convert"]) expect(types).toContain(t);
    const tools = await srv.anon().t.call<unknown[]>("GET", "/api/config/tools-index");
    expect(types.filter((t) => t.startsWith("op.") && t !== "op.workflow").length).toBe(tools.length);
  });

  test("templates: at least five valid built-ins; personal ones saved, listed and deleted by their owner only", async () => {
    const c = await srv.user();
    const other = await srv.user();
    const builtIns = (await c.workflows.templates.list()).filter((t) => t.builtIn);
    expect(builtIns.length).toBeGreaterThanOrEqual(5);
    for (const t of builtIns) {
      expect(t.id.startsWith("builtin:")).toBe(true);
      expect((await c.workflows.validate(t.graphJson)).ok).toBe(true);
    }
    const mine = await c.workflows.templates.create({ name: "Mine", description: "d", graphJson: linear(["in", "source.upload"], ["out", "sink.zip", { name: "all.zip" }]) });
    expect((await c.workflows.templates.list()).map((t) => t.id)).toContain(mine.id);
    expect((await other.workflows.templates.list()).map((t) => t.id)).not.toContain(mine.id);
    await expectApiError(() => other.workflows.templates.delete(mine.id), "NOT_FOUND", 404);
    await expectApiError(() => c.workflows.templates.delete(builtIns[0].id), "FORBIDDEN", 403);
    await c.workflows.templates.delete(mine.id);
    expect((await c.workflows.templates.list()).map((t) => t.id)).not.toContain(mine.id);
  });

  test("every built-in template runs", async () => {
    const c = await srv.user();
    for (const t of (await c.workflows.templates.list()).filter((x) => x.builtIn)) {
      const w = await c.workflows.create({ name: t.name, graphJson: t.graphJson });
      const { runId } = await c.workflows.run(w.id, []);
      let d = await c.workflows.waitFor(runId, { until: ["succeeded", "failed", "cancelled", "waiting_approval"] });
      if (d.run.status === "waiting_approval") {
        await c.workflows.approve(runId, { decision: "approved" });
        d = await c.workflows.waitFor(runId);
      }
      expect({ template: t.id, status: d.run.status }).toEqual({ template: t.id, status: "succeeded" });
    }
  });
});

describe("validation and bad input", () => {
  const ok = linear(["in", "source.upload"], ["out", "sink.download"]);
  const codes = async (c: Client, graphJson: string) => (await c.workflows.validate(graphJson)).issues.map((i) => i.code);

  test("each broken graph gets its issue code", async () => {
    const c = await srv.user();
    expect(await c.workflows.validate(ok)).toMatchObject({ ok: true, issues: [] });
    expect(await codes(c, "not json")).toEqual(["INVALID_GRAPH"]);
    expect(await codes(c, "[1,2]")).toEqual(["INVALID_GRAPH"]);
    expect(await codes(c, graph([["a", "source.upload"], ["a", "sink.download"]], []))).toContain("DUPLICATE_NODE_ID");
    expect(await codes(c, graph([["a", "source.upload"]], [["a", "nowhere"]]))).toContain("DANGLING_EDGE");
    expect(await codes(c, graph([["a", "source.upload"], ["b", "logic.merge"]], [["a", "b"], ["b", "b"]]))).toContain("CYCLE");
    expect(await codes(c, graph([["a", "source.upload"], ["b", "logic.merge"], ["m", "logic.merge"]], [["a", "b"], ["b", "m"], ["m", "b"]]))).toContain("CYCLE");
    expect(await codes(c, linear(["a", "source.upload"], ["b", "op.no.such-tool"]))).toContain("UNKNOWN_NODE_TYPE");
    expect(await codes(c, linear(["a", "trigger.manual"], ["b", "sink.download"]))).toContain("NO_SOURCE");
    expect(await codes(c, linear(["a", "source.upload"], ["b", "op.pdf.rotate", { degrees: "ninety" }]))).toContain("INVALID_PARAMS");
    expect(await codes(c, linear(["a", "source.upload"], ["b", "op.pdf.compress"], ["c", "op.cad.convert"]))).toContain("IO_MISMATCH");
    const nodes: NodeSpec[] = [["in", "source.upload"], ...Array.from({ length: 26 }, (_, i): NodeSpec => [`c${i}`, "op.pdf.compress"])];
    expect(await codes(c, linear(...nodes))).toContain("TOO_MANY_STEPS");
  });

  test("10,000 nodes and a 5 MB graphJson are refused without work", async () => {
    const c = await srv.user();
    const many = graph(Array.from({ length: 10_000 }, (_, i): NodeSpec => [`n${i}`, i === 0 ? "source.upload" : "logic.merge"]), []);
    expect(many.length).toBeLessThan(800_000);
    expect(await codes(c, many)).toEqual(["TOO_MANY_NODES"]);
    await expectApiError(() => c.workflows.create({ name: "many", graphJson: many }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.workflows.validate("x".repeat(5 * 1024 * 1024)), "PAYLOAD_TOO_LARGE", 413);
    await expectApiError(() => c.workflows.create({ name: "big", graphJson: "x".repeat(5 * 1024 * 1024) }), "PAYLOAD_TOO_LARGE", 413);
    await expectApiError(() => c.workflows.create({ name: "bad", graphJson: "not json" }), "VALIDATION_ERROR", 400);
    expect((await c.workflows.list()).items).toEqual([]);
  });

  test("op.workflow: itself, another user's workflow, 4 levels deep", async () => {
    const c = await srv.user();
    const other = await srv.user();
    const theirs = await other.workflows.create({ name: "theirs", graphJson: ok });
    await expectApiError(() => c.workflows.create({ name: "x", graphJson: linear(["in", "source.upload"], ["s", "op.workflow", { workflowId: theirs.id }]) }), "NOT_FOUND", 404);
    const a = await c.workflows.create({ name: "a", graphJson: ok });
    await expectApiError(() => c.workflows.update(a.id, { graphJson: linear(["in", "source.upload"], ["s", "op.workflow", { workflowId: a.id }]) }), "VALIDATION_ERROR", 400);
    // a chain of 4 workflows each running the next: the root sees 4 levels below it
    let inner = a;
    const chain = [];
    for (let i = 0; i < 4; i++) {
      const g = linear(["in", "source.upload"], ["s", "op.workflow", { workflowId: inner.id }]);
      if (i < 3) inner = await c.workflows.create({ name: `l${i}`, graphJson: g });
      else await expectApiError(() => c.workflows.create({ name: "too deep", graphJson: g }), "LIMIT_EXCEEDED", 422);
      chain.push(inner.id);
    }
    const cyc1 = await c.workflows.create({ name: "c1", graphJson: ok });
    const cyc2 = await c.workflows.create({ name: "c2", graphJson: linear(["in", "source.upload"], ["s", "op.workflow", { workflowId: cyc1.id }]) });
    await expectApiError(() => c.workflows.update(cyc1.id, { graphJson: linear(["in", "source.upload"], ["s", "op.workflow", { workflowId: cyc2.id }]) }), "VALIDATION_ERROR", 400);
  });

  test("paramsJson: notifyUrl must be http(s), notifySecret at least 8 characters", async () => {
    const c = await srv.user();
    await expectApiError(() => c.workflows.create({ name: "p", graphJson: ok, paramsJson: JSON.stringify({ notifyUrl: "ftp://x" }) }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.workflows.create({ name: "p", graphJson: ok, paramsJson: JSON.stringify({ notifySecret: "short" }) }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.workflows.create({ name: "p", graphJson: ok, paramsJson: "{" }), "VALIDATION_ERROR", 400);
    const w = await c.workflows.create({ name: "p", graphJson: ok, paramsJson: JSON.stringify({ notifyUrl: "https://example.test/hook", notifySecret: "long enough" }) });
    expect(w.paramsJson).toContain("notifyUrl");
  });

  test("runs with bad files or no credits create and charge nothing", async () => {
    const c = await srv.user();
    const other = await srv.user();
    const w = await c.workflows.create({ name: "r", graphJson: linear(["in", "source.upload"], ["c", "op.pdf.compress"], ["out", "sink.download"]) });
    const before = await balance(c);
    const theirs = await pdf(other);
    await expectApiError(() => c.workflows.run(w.id, [theirs]), "NOT_FOUND", 404);
    const pending = await c.files.presignUpload<{ fileId: string }>({ filename: "p.pdf", mime: "application/pdf", size: 10 });
    await expectApiError(() => c.workflows.run(w.id, [pending.fileId]), "INVALID_STATE", 409);
    await expectApiError(() => other.workflows.run(w.id, []), "NOT_FOUND", 404);
    await (await srv.admin()).admin.grantCredits({ email: c.email, amount: -before, reason: "test" });
    await expectApiError(() => c.workflows.run(w.id, []), "INSUFFICIENT_CREDITS", 402);
    expect((await c.workflows.runs(w.id)).items).toEqual([]);
    expect(await balance(c)).toBe(0);
  });

  test("workflow.enabled off: 403 FEATURE_DISABLED; over workflow.max_steps: 422 and nothing charged", async () => {
    const c = await srv.user();
    const admin = await srv.admin();
    const w = await c.workflows.create({ name: "s", graphJson: linear(["in", "source.upload"], ["a", "op.pdf.compress"], ["b", "op.pdf.rotate"]) });
    const before = await balance(c);
    await admin.admin.setConfig("workflow_configs", { "workflow.enabled": false });
    try {
      await expectApiError(() => c.workflows.run(w.id, []), "FEATURE_DISABLED", 403);
    } finally {
      await admin.admin.setConfig("workflow_configs", { "workflow.enabled": true });
    }
    await admin.admin.setConfig("workflow_configs", { "workflow.max_steps": 1 });
    try {
      await expectApiError(() => c.workflows.run(w.id, []), "LIMIT_EXCEEDED", 422);
    } finally {
      await admin.admin.setConfig("workflow_configs", { "workflow.max_steps": 25 });
    }
    expect(await balance(c)).toBe(before);
  });

  test("workflow.max_steps lowered after saving: the estimate answers 200 with steps > maxSteps (sub-workflows counted); the run is 422, charges nothing, and says what to change", async () => {
    const c = await srv.user();
    const admin = await srv.admin();
    const child = await c.workflows.create({ name: "child", graphJson: linear(["in", "source.upload"], ["a", "op.pdf.compress"], ["b", "op.pdf.rotate"]) });
    const parent = await c.workflows.create({ name: "parent", graphJson: linear(["in", "source.upload"], ["x", "op.pdf.compress"], ["sub", "op.workflow", { workflowId: child.id }], ["out", "sink.download"]) });
    expect(await c.workflows.estimate(parent.id)).toEqual({ credits: 4, steps: 3, maxSteps: 25 });
    const before = await balance(c);
    await admin.admin.setConfig("workflow_configs", { "workflow.max_steps": 2 });
    try {
      expect(await c.workflows.estimate(parent.id)).toEqual({ credits: 4, steps: 3, maxSteps: 2 });
      expect(await c.workflows.estimate(child.id)).toEqual({ credits: 3, steps: 2, maxSteps: 2 });
      const err = await expectApiError(() => c.workflows.run(parent.id, []), "LIMIT_EXCEEDED", 422);
      expect(err.message).toContain("The workflow has 3 tool steps");
      expect(err.message).toContain("at most 2 are allowed (workflow.max_steps)");
      expect(err.message).toContain("remove tool steps");
      expect(err.message).not.toMatch(/graphJson is not a valid workflow|TOO_MANY_STEPS/);
      // Saving it again refuses the same way, with the same advice.
      const { graphJson } = await c.workflows.get(parent.id);
      const saved = await expectApiError(() => c.workflows.update(parent.id, { graphJson }), "LIMIT_EXCEEDED", 422);
      expect(saved.message).toBe(err.message);
      expect((await c.workflows.runs(parent.id)).items).toEqual([]);
    } finally {
      await admin.admin.setConfig("workflow_configs", { "workflow.max_steps": 25 });
    }
    expect(await balance(c)).toBe(before);
    // A sub-workflow deleted since: the estimate cannot count it and answers like the run (404).
    await c.workflows.delete(child.id);
    const gone = await expectApiError(() => c.workflows.estimate(parent.id), "NOT_FOUND", 404);
    expect(gone.message).toContain("does not exist or is not yours: set params.workflowId to one of your workflows");
  });

  test("error messages from validation issues read as advice, without codes or prefixes", async () => {
    const c = await srv.user();
    const noSource = await expectApiError(() => c.workflows.create({ name: "x", graphJson: linear(["a", "trigger.manual"], ["b", "sink.download"]) }), "VALIDATION_ERROR", 400);
    expect(noSource.message).toStartWith("Add a source.upload node");
    const several = await expectApiError(() => c.workflows.create({ name: "x", graphJson: graph([["a", "source.upload"], ["b", "op.pdf.rotate", { degrees: "ninety" }]], [["a", "b"], ["b", "b"]]) }), "VALIDATION_ERROR", 400);
    expect(several.message).toContain('Node "b" is connected to itself: remove that edge');
    expect(several.message).toContain('Node "b" (op.pdf.rotate): degrees: ');
    for (const m of [noSource.message, several.message]) expect(m).not.toMatch(/graphJson is not a valid workflow|[A-Z]+_[A-Z_]+:/);
  });

  test("another user's workflow, run, version and template answer 404 everywhere", async () => {
    const c = await srv.user();
    const other = await srv.user();
    const w = await c.workflows.create({ name: "mine", graphJson: ok });
    const { runId } = await c.workflows.run(w.id, []);
    await c.workflows.waitFor(runId);
    const t = await c.workflows.templates.create({ name: "t", graphJson: ok });
    for (const call of [
      () => other.workflows.get(w.id),
      () => other.workflows.update(w.id, { name: "x" }),
      () => other.workflows.delete(w.id),
      () => other.workflows.estimate(w.id),
      () => other.workflows.versions(w.id),
      () => other.workflows.restore(w.id, w.versionId),
      () => other.workflows.version(w.id, w.versionId),
      () => other.workflows.runs(w.id),
      () => other.workflows.runDetail(runId),
      () => other.workflows.retry(runId),
      () => other.workflows.replay(runId),
      () => other.workflows.cancel(runId),
      () => other.workflows.approve(runId, { decision: "approved" }),
      () => other.workflows.templates.delete(t.id),
      () => c.workflows.restore(w.id, "wfv_nope"),
      () => c.workflows.version(w.id, "wfv_nope"),
    ]) {
      await expectApiError(call, "NOT_FOUND", 404);
    }
  });

  test("approving a run that is not waiting is 409; a decision other than approved/rejected is 400", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "x", graphJson: ok });
    const { runId } = await c.workflows.run(w.id, []);
    await c.workflows.waitFor(runId);
    await expectApiError(() => c.workflows.approve(runId, { decision: "approved" }), "INVALID_STATE", 409);
    await expectApiError(() => c.t.call("POST", `/api/workflows/runs/${runId}/approve`, { decision: "maybe" }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.workflows.retry(runId), "INVALID_STATE", 409);
    await expectApiError(() => c.workflows.cancel(runId), "INVALID_STATE", 409);
  });
});

describe("runs", () => {
  test("a linear run: charged once, files pass as ids, sink.zip writes a STORE archive, sink.rename names outputs", async () => {
    const c = await srv.user();
    const files = [await pdf(c, "a.pdf"), await pdf(c, "b.pdf")];
    const w = await c.workflows.create({
      name: "zip",
      graphJson: graph(
        [["in", "source.upload"], ["r", "op.pdf.rotate", { degrees: 90 }], ["zip", "sink.zip", { name: "rotated.zip" }], ["ren", "sink.rename", { pattern: "{index}-{name}-x{ext}" }]],
        [["in", "r"], ["r", "zip"], ["r", "ren"]],
      ),
    });
    const before = await balance(c);
    const { runId, credits } = await c.workflows.run(w.id, files);
    expect(credits).toBe(2);
    expect(await balance(c)).toBe(before - 2);
    const d = await c.workflows.waitFor(runId);
    expect(d.run).toMatchObject({ status: "succeeded", trigger: "manual", inputFileIds: files, credits: 2, error: null });
    const step = (id: string) => d.steps.find((s) => s.nodeId === id)!;
    expect(step("r").jobIds.length).toBe(2);
    expect(step("r").outputFileIds.length).toBe(2);
    const zip = await c.files.get(step("zip").outputFileIds[0]);
    expect(zip.filename).toBe("rotated.zip");
    const entries = await zipEntries(await (await c.files.download(zip.fileId)).bytes());
    expect(entries.map((e) => e.method)).toEqual([0, 0]);
    const renamed = await Promise.all(step("ren").outputFileIds.map((id) => c.files.get(id)));
    expect(renamed.map((f) => f.filename)).toEqual(["1-a-rotated-x.pdf", "2-b-rotated-x.pdf"]);
    expect(new Set(d.run.outputFileIds)).toEqual(new Set([zip.fileId, ...renamed.map((f) => f.fileId)]));
    expect((await c.workflows.runs(w.id)).items.map((r) => r.runId)).toEqual([runId]);
  });

  test("an op step's tool job starts in a free tool lane of the process whose transition queued it: inserted running, no wake-up, no claim", async () => {
    // Its own server: polls a minute apart, so a claim of the tool lane could only come from a wake-up.
    const quiet = await startTestServer({ JOB_POLL_MS: "60000", TOOL_WORKERS: "1" });
    try {
      const runner = quiet.runner!;
      await waitFor("the tool lane's first claim over", () => runner.claims.tool, (n) => n >= 1);
      const c = await quiet.user();
      const w = await c.workflows.create({ name: "claimed", graphJson: linear(["in", "source.upload"], ["r", "op.pdf.rotate", { degrees: 90 }], ["out", "sink.download"]) });
      const claims = runner.claims.tool;
      const d = await c.workflows.waitFor((await c.workflows.run(w.id, [await pdf(c, "one.pdf", 1)])).runId);
      expect(d.run.status).toBe("succeeded");
      const job = await c.jobs.get(d.steps.find((s) => s.nodeId === "r")!.jobIds[0]);
      // Inserted running by the transition's statement: queued and started at the same instant (its transaction's clock).
      expect(job).toMatchObject({ status: "succeeded", startedAt: job.createdAt });
      await Bun.sleep(300); // room for a claim a wake-up or the lane's end would set off
      expect(runner.claims.tool).toBe(claims);
    } finally {
      await quiet.close();
    }
  });

  test("a run with no files succeeds with empty outputs", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "empty", graphJson: linear(["in", "source.upload"], ["c", "op.pdf.compress"], ["out", "sink.download"]) });
    const d = await c.workflows.waitFor((await c.workflows.run(w.id, [])).runId);
    expect(d.run).toMatchObject({ status: "succeeded", outputFileIds: [] });
  });

  test("a diamond: both branches run at the same time, the merge waits for both", async () => {
    const c = await srv.user();
    const file = await pdf(c, "big.pdf", 12);
    const w = await c.workflows.create({
      name: "diamond",
      graphJson: graph(
        [["in", "source.upload"], ["left", "op.pdf.render-png", { dpi: 110 }], ["right", "op.pdf.render-png", { dpi: 100 }], ["m", "logic.merge"], ["out", "sink.download"]],
        [["in", "left"], ["in", "right"], ["left", "m"], ["right", "m"], ["m", "out"]],
      ),
    });
    const d = await c.workflows.waitFor((await c.workflows.run(w.id, [file])).runId);
    expect(d.run.status).toBe("succeeded");
    const jobs = await Promise.all(["left", "right"].map((id) => c.t.call<{ startedAt: string; finishedAt: string; outputs: unknown[] }>("GET", `/api/jobs/${d.steps.find((s) => s.nodeId === id)!.jobIds[0]}`)));
    const [l, r] = jobs.map((j) => ({ start: Date.parse(j.startedAt), end: Date.parse(j.finishedAt) }));
    expect(l.start < r.end && r.start < l.end).toBe(true);
    const merge = d.steps.find((s) => s.nodeId === "m")!;
    expect(merge.outputFileIds.length).toBe(jobs[0].outputs.length + jobs[1].outputs.length);
    expect(Date.parse(merge.startedAt!)).toBeGreaterThanOrEqual(Math.max(l.end, r.end));
  });

  test("logic.filter keeps what matches", async () => {
    const c = await srv.user();
    const files = [await pdf(c, "keep-1.pdf"), await pdf(c, "drop.pdf"), await pdf(c, "keep-2.pdf")];
    const w = await c.workflows.create({ name: "f", graphJson: linear(["in", "source.upload"], ["f", "logic.filter", { glob: "keep-*.pdf", formats: ["pdf"] }], ["out", "sink.download"]) });
    const d = await c.workflows.waitFor((await c.workflows.run(w.id, files)).runId);
    expect(d.run.outputFileIds).toEqual([files[0], files[2]]);
  });

  const approvalGraph = (timeoutSeconds?: number) =>
    linear(["in", "source.upload"], ["ok", "logic.approval", timeoutSeconds ? { timeoutSeconds } : {}], ["c", "op.pdf.compress"], ["out", "sink.download"]);

  test("an approval approved: the run waits, records who decided, when and the note, then goes on", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "a", graphJson: approvalGraph() });
    const { runId } = await c.workflows.run(w.id, [await pdf(c)]);
    const waiting = await c.workflows.waitFor(runId, { until: ["waiting_approval"] });
    expect(waiting.run.status).toBe("waiting_approval");
    expect(waiting.approvals).toMatchObject([{ nodeId: "ok", status: "pending" }]);
    const expires = Date.parse(waiting.approvals[0].expiresAt) - Date.parse(waiting.approvals[0].requestedAt);
    expect(expires).toBe(86_400_000);
    const decided = await c.workflows.approve(runId, { decision: "approved", note: "looks right" });
    expect(decided).toMatchObject({ status: "approved", decision: "approved", note: "looks right" });
    const d = await c.workflows.waitFor(runId);
    expect(d.run.status).toBe("succeeded");
    expect(d.approvals[0].decidedAt).not.toBeNull();
    expect(d.run.outputFileIds.length).toBe(1);
  });

  test("an approval rejected ends the run failed with APPROVAL_REJECTED; retry asks again", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "r", graphJson: approvalGraph() });
    const { runId } = await c.workflows.run(w.id, [await pdf(c)]);
    await c.workflows.waitFor(runId, { until: ["waiting_approval"] });
    await c.workflows.approve(runId, { decision: "rejected", note: "no" });
    const failed = await c.workflows.waitFor(runId);
    expect(failed.run).toMatchObject({ status: "failed", error: { code: "APPROVAL_REJECTED" } });
    expect(failed.steps.find((s) => s.nodeId === "c")!.status).toBe("skipped");
    const before = await balance(c);
    expect(await c.workflows.retry(runId)).toEqual({ runId, credits: 0 });
    await c.workflows.waitFor(runId, { until: ["waiting_approval"] });
    await c.workflows.approve(runId, { decision: "approved" });
    const d = await c.workflows.waitFor(runId);
    expect(d.run.status).toBe("succeeded");
    expect(d.steps.find((s) => s.nodeId === "ok")!.attempts).toBe(2);
    expect(await balance(c)).toBe(before);
  });

  test("an approval nobody decides ends the run failed with APPROVAL_TIMEOUT", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "t", graphJson: approvalGraph(1) });
    const { runId } = await c.workflows.run(w.id, [await pdf(c)]);
    const d = await c.workflows.waitFor(runId, { timeoutMs: 30_000 });
    expect(d.run).toMatchObject({ status: "failed", error: { code: "APPROVAL_TIMEOUT" } });
    expect(d.approvals[0].status).toBe("expired");
  });

  test("a 3-level sub-workflow runs inside the same run, its steps nested under the node", async () => {
    const c = await srv.user();
    const l3 = await c.workflows.create({ name: "l3", graphJson: linear(["in", "source.upload"], ["rot", "op.pdf.rotate", { degrees: 180 }]) });
    const l2 = await c.workflows.create({ name: "l2", graphJson: linear(["in", "source.upload"], ["sub", "op.workflow", { workflowId: l3.id }]) });
    const l1 = await c.workflows.create({ name: "l1", graphJson: linear(["in", "source.upload"], ["sub", "op.workflow", { workflowId: l2.id }]) });
    const root = await c.workflows.create({ name: "root", graphJson: linear(["in", "source.upload"], ["sub", "op.workflow", { workflowId: l1.id }], ["out", "sink.download"]) });
    expect((await c.workflows.estimate(root.id)).steps).toBe(1);
    const file = await pdf(c);
    const { runId, credits } = await c.workflows.run(root.id, [file]);
    expect(credits).toBe(2);
    const d = await c.workflows.waitFor(runId);
    expect(d.run.status).toBe("succeeded");
    const rot = d.steps.find((s) => s.type === "op.pdf.rotate")!;
    expect(rot.nodeId).toBe("sub/sub/sub/rot");
    expect(rot.parentNodeId).toBe("sub/sub/sub");
    expect(d.steps.find((s) => s.nodeId === "sub/sub")!.parentNodeId).toBe("sub");
    expect(d.run.outputFileIds).toEqual(rot.outputFileIds);
  });

  test("a failing tool step fails the run with the tool's code; retry re-runs the failed step only, free", async () => {
    const c = await srv.user();
    const broken = await c.files.upload(new Blob(["%PDF-1.7\nnot really a pdf\n"]), { filename: "broken.pdf", mime: "application/pdf" });
    const good = await pdf(c, "good.pdf");
    const w = await c.workflows.create({
      name: "fail",
      graphJson: graph(
        [["in", "source.upload"], ["good", "logic.filter", { glob: "good*" }], ["ok", "op.pdf.rotate"], ["bad", "logic.filter", { glob: "broken*" }], ["c", "op.pdf.compress"], ["m", "logic.merge"]],
        [["in", "good"], ["good", "ok"], ["in", "bad"], ["bad", "c"], ["ok", "m"], ["c", "m"]],
      ),
    });
    const { runId } = await c.workflows.run(w.id, [broken.fileId, good]);
    const failed = await c.workflows.waitFor(runId);
    expect(failed.run.status).toBe("failed");
    expect(failed.run.error!.code).not.toBe("INTERNAL");
    const step = (d: typeof failed, id: string) => d.steps.find((s) => s.nodeId === id)!;
    expect(step(failed, "c")).toMatchObject({ status: "failed", attempts: 1 });
    expect(step(failed, "ok").status).toBe("succeeded");
    const before = await balance(c);
    await c.workflows.retry(runId);
    const again = await c.workflows.waitFor(runId);
    expect(again.run.status).toBe("failed");
    expect(step(again, "c").attempts).toBe(2);
    expect(step(again, "ok").attempts).toBe(1);
    expect(await balance(c)).toBe(before);
  });

  test("replay: a new run with the same inputs on the current version, charged again", async () => {
    const c = await srv.user();
    const file = await pdf(c);
    const w = await c.workflows.create({ name: "v1", graphJson: linear(["in", "source.upload"], ["out", "sink.download"]) });
    const first = await c.workflows.run(w.id, [file]);
    await c.workflows.waitFor(first.runId);
    await c.workflows.update(w.id, { graphJson: linear(["in", "source.upload"], ["c", "op.pdf.compress"], ["out", "sink.download"]) });
    const before = await balance(c);
    const replay = await c.workflows.replay(first.runId);
    expect(replay).toMatchObject({ credits: 2, replayOf: first.runId });
    expect(await balance(c)).toBe(before - 2);
    const d = await c.workflows.waitFor(replay.runId);
    expect(d.run).toMatchObject({ status: "succeeded", trigger: "replay", replayOf: first.runId, inputFileIds: [file] });
    expect(d.run.versionId).toBe((await c.workflows.get(w.id)).versionId);
    expect(d.steps.map((s) => s.type)).toContain("op.pdf.compress");
  });

  test("cancel: the run ends cancelled and the op steps that never started are refunded", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "c", graphJson: linear(["in", "source.upload"], ["a", "op.pdf.rotate"], ["ok", "logic.approval"], ["b", "op.pdf.compress"], ["d", "op.pdf.rotate"], ["out", "sink.download"]) });
    const before = await balance(c);
    const { runId, credits } = await c.workflows.run(w.id, [await pdf(c)]);
    expect(credits).toBe(4);
    await c.workflows.waitFor(runId, { until: ["waiting_approval"] });
    expect(await c.workflows.cancel(runId)).toEqual({ runId, status: "cancelled", refundedCredits: 2 });
    const d = await c.workflows.waitFor(runId);
    expect(d.run).toMatchObject({ status: "cancelled", refunded: 2 });
    expect(d.approvals[0].status).toBe("cancelled");
    expect(await balance(c)).toBe(before - 2);
    await expectApiError(() => c.workflows.approve(runId, { decision: "approved" }), "INVALID_STATE", 409);
  });

  test("cancel stops a running tool job", async () => {
    const c = await srv.user();
    const w = await c.workflows.create({ name: "long", graphJson: linear(["in", "source.upload"], ["r", "op.pdf.render-png", { dpi: 300 }], ["out", "sink.download"]) });
    const { runId } = await c.workflows.run(w.id, [await pdf(c, "long.pdf", 40)]);
    let jobId = "";
    for (let i = 0; i < 400 && !jobId; i++) {
      const d = await c.workflows.runDetail(runId);
      const ids = d.steps.find((s) => s.nodeId === "r")!.jobIds;
      if (ids.length && (await c.t.call<{ status: string }>("GET", `/api/jobs/${ids[0]}`)).status === "running") jobId = ids[0];
      else await Bun.sleep(50);
    }
    expect(jobId).not.toBe("");
    await c.workflows.cancel(runId);
    let status = "";
    for (let i = 0; i < 200 && status !== "cancelled"; i++) {
      status = (await c.t.call<{ status: string }>("GET", `/api/jobs/${jobId}`)).status;
      await Bun.sleep(50);
    }
    expect(status).toBe("cancelled");
  });
});
