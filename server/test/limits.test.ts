/** Server-side tool limits over HTTP: an input 10x the size cap, and a job past its timeout. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./harness";
import { makePdf, noise } from "./fixtures";

let srv: TestServer;
beforeAll(async () => {
  // 1 s: a 1-page rotate on a loaded engine takes a few ms even beside two CPU hogs, while the
  // 60-page render at 300 dpi takes many seconds on the fastest machine.
  srv = await startTestServer({ TOOL_MAX_INPUT_MB: "1", TOOL_TIMEOUT_MS: "1000", TOOL_WORKERS: "1" });
});
afterAll(() => srv.close());

type Job = { status: string; errorCode: string | null; error: string | null };

describe("tool limits", () => {
  test("an input 10x the size limit fails the job with INPUT_TOO_LARGE before any work", async () => {
    const c = await srv.user();
    const f = await c.files.upload(new Blob([noise(10 * 1024 * 1024)]), { filename: "big.bin", mime: "application/octet-stream" });
    const job = await c.t.call<Job>("POST", "/api/tools/pdf.compress", { fileIds: [f.fileId] });
    expect(job).toMatchObject({ status: "failed", errorCode: "INPUT_TOO_LARGE" });
    expect(job.error).toContain("at most 1048576 bytes");
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
