/**
 * Server-side tool limits over HTTP: an input over a tool's limit refused where the job, the
 * upload-and-run, the batch item or the workflow step is created, and a job past its timeout.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectApiError, startTestServer, type TestServer } from "./harness";
import { makePdf, noise } from "./fixtures";
import { linear } from "./graphs";

type Client = Awaited<ReturnType<TestServer["user"]>>;

let srv: TestServer;
beforeAll(async () => {
  // 1 s: a 1-page rotate on a loaded engine takes a few ms even beside two CPU hogs, while the
  // 60-page render at 300 dpi takes many seconds on the fastest machine.
  srv = await startTestServer({ TOOL_MAX_INPUT_MB: "1", TOOL_TIMEOUT_MS: "1000", TOOL_WORKERS: "1" });
});
afterAll(() => srv.close());

type Job = { status: string; errorCode: string | null; error: string | null };

/** 1.5 MB: over TOOL_MAX_INPUT_MB=1, so every tool refuses it here. */
const OVER = 1.5 * 1024 * 1024;
const TOO_LARGE = /"big\.pdf" is 1\.5 MB; pdf\.compress takes files of at most 1 MB on this server/;

/** A one-page PDF padded to 1.5 MB (its signature still says PDF). */
async function bigFile(c: Client) {
  const pdf = await makePdf(1);
  return c.files.upload(new Blob([pdf, noise(OVER - pdf.byteLength)]), { filename: "big.pdf", mime: "application/pdf" });
}

describe("input size limits, checked at creation", () => {
  test("the catalog shows each tool's limit within TOOL_MAX_INPUT_MB", async () => {
    const [tool] = await srv.anon().t.call<{ maxInputBytes: number }[]>("GET", "/api/tools/lookup?slugs=pdf.compress");
    expect(tool.maxInputBytes).toBe(1024 * 1024);
  });

  test("POST /api/tools/{slug}: 422 LIMIT_EXCEEDED naming the limit and the size; no job is queued", async () => {
    const c = await srv.user();
    const f = await bigFile(c);
    const err = await expectApiError(() => c.t.call<Job>("POST", "/api/tools/pdf.compress", { fileIds: [f.fileId] }), "LIMIT_EXCEEDED", 422);
    expect(err.message).toMatch(TOO_LARGE);
    expect((await c.t.call<{ items: unknown[] }>("GET", "/api/jobs")).items).toEqual([]);
  });

  test("upload and run: the declared size is refused before any byte moves", async () => {
    const c = await srv.user();
    const err = await expectApiError(() => c.files.presignUpload({ filename: "big.pdf", mime: "application/pdf", size: OVER, createJob: true, jobType: "pdf.compress" }), "LIMIT_EXCEEDED", 422);
    expect(err.message).toMatch(TOO_LARGE);
    expect((await c.files.list()).items).toEqual([]);
  });

  test("a batch with one file over the limit is refused whole, nothing charged", async () => {
    const c = await srv.user();
    const small = await c.files.upload(new Blob([await makePdf(1)]), { filename: "s.pdf", mime: "application/pdf" });
    const f = await bigFile(c);
    const before = (await c.account()).credits;
    const err = await expectApiError(() => c.batches.create({ type: "pdf.compress", fileIds: [small.fileId, f.fileId] }), "LIMIT_EXCEEDED", 422);
    expect(err.message).toMatch(TOO_LARGE);
    expect((await c.account()).credits).toBe(before);
  });

  test("a workflow's op step fails with INPUT_TOO_LARGE naming the limit; no tool job is queued", async () => {
    const c = await srv.user();
    const f = await bigFile(c);
    const w = await c.workflows.create({ name: "big", graphJson: linear(["in", "source.upload"], ["c", "op.pdf.compress"], ["out", "sink.download"]) });
    const d = await c.workflows.runAndWait(w.id, [f.fileId]);
    const step = d.steps.find((s) => s.nodeId === "c")!;
    expect({ run: d.run.status, step: step.status, code: step.error?.code, jobs: step.jobIds }).toEqual({ run: "failed", step: "failed", code: "INPUT_TOO_LARGE", jobs: [] });
    expect(step.error?.message).toMatch(TOO_LARGE);
  });

  test("a job past its timeout is stopped with TIMEOUT and the server keeps serving", async () => {
    const c = await srv.user();
    const f = await c.files.upload(new Blob([await makePdf(60)]), { filename: "long.pdf", mime: "application/pdf" });
    const job = await c.t.call<Job>("POST", "/api/tools/pdf.render-png", { fileIds: [f.fileId], params: { dpi: 300 } });
    expect(job).toMatchObject({ status: "failed", errorCode: "TIMEOUT", error: "The tool ran longer than 1 s and was stopped" });
    // The replacement worker loads mupdf again; that cold start must not be charged to the next jobs.
    const small = await c.files.upload(new Blob([await makePdf(1)]), { filename: "s.pdf", mime: "application/pdf" });
    for (let i = 0; i < 3; i++) {
      expect(await c.t.call<Job>("POST", "/api/tools/pdf.rotate", { fileIds: [small.fileId] })).toMatchObject({ status: "succeeded", errorCode: null });
    }
    expect((await srv.anon().health()).status).toBe("ok");
  });
});
