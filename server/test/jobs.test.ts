/**
 * The caller's tool jobs: GET /api/jobs (paged newest first, each user's own only, session or
 * token with scope api) and POST /api/jobs/{jobId}/cancel (a queued job never runs, a running
 * one ends cancelled, an ended one is 409, a batch item or a workflow step's job is 409 naming
 * its batch or run, another user's or an unknown id is 404). One tool worker, so a long job
 * holds the ones queued after it for as long as a test needs.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { VektorClient } from "@vektor/shared/client";
import type { Job } from "@vektor/shared/schemas/job";
import { makePdf } from "./fixtures";
import { linear } from "./graphs";
import { expectApiError, startTestServer, waitFor, type TestServer } from "./harness";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ TOOL_WORKERS: "1" });
});
afterAll(() => srv.close());

async function pdf(c: VektorClient, name = "doc.pdf", pages = 2): Promise<string> {
  return (await c.files.upload(new Blob([await makePdf(pages, name)]), { filename: name, mime: "application/pdf" })).fileId;
}

/** A job that runs for seconds (40 pages rendered at 300 dpi), once it is running. */
async function longRunning(c: VektorClient): Promise<Job> {
  const job = await c.jobs.create({ type: "pdf.render-png", fileIds: [await pdf(c, "long.pdf", 40)], params: { dpi: 300 } });
  return waitFor("the long job to run", () => c.jobs.get(job.jobId), (j) => j.status === "running", 60_000);
}

describe("GET /api/jobs", () => {
  test("pages the caller's jobs newest first, each as GET /api/jobs/{jobId} shows it; other users' never appear", async () => {
    const a = await srv.user();
    const b = await srv.user();
    const file = await pdf(a);
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) mine.push((await a.jobs.create({ type: "pdf.rotate", fileIds: [file], params: { degrees: 90 } })).jobId);
    const theirs = (await b.jobs.create({ type: "pdf.rotate", fileIds: [await pdf(b)], params: { degrees: 90 } })).jobId;
    for (const id of mine) await a.jobs.wait(id);
    await b.jobs.wait(theirs);

    const seen: Job[] = [];
    let cursor: string | undefined;
    for (let pages = 0; ; pages++) {
      const page = await a.jobs.list({ limit: 2, cursor });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      if (!page.nextCursor) break;
      expect(pages).toBeLessThan(3);
      cursor = page.nextCursor;
    }
    expect(seen.map((j) => j.jobId)).toEqual([...mine].reverse());
    for (const j of seen) expect(j).toEqual(await a.jobs.get(j.jobId));
    expect(seen[0]).toMatchObject({ type: "pdf.rotate", status: "succeeded", batchId: null, runId: null, cancelRequested: false });
    expect((await a.jobs.list()).items.map((j) => j.jobId)).toEqual([...mine].reverse());
    expect((await b.jobs.list()).items.map((j) => j.jobId)).toEqual([theirs]);
    expect(await (await srv.user()).jobs.list()).toEqual({ items: [], nextCursor: null });

    // A token with scope api reads the same list; one without it is refused, as is no one.
    const token = await a.tokens.create({ name: "jobs", scopes: ["api"] });
    expect((await a.withToken(token.token).jobs.list({ limit: 200 })).items.map((j) => j.jobId)).toEqual([...mine].reverse());
    const mcpOnly = await a.tokens.create({ name: "mcp", scopes: ["mcp:write"] });
    await expectApiError(() => a.withToken(mcpOnly.token).jobs.list(), "FORBIDDEN", 403);
    await expectApiError(() => srv.anon().jobs.list(), "UNAUTHORIZED", 401);
  });

  test("batch items and workflow steps' jobs are listed with their batch and run", async () => {
    const c = await srv.user();
    const file = await pdf(c);
    const { batchId } = await c.batches.create({ type: "pdf.rotate", fileIds: [file], params: { degrees: 90 } });
    await c.batches.waitFor(batchId);
    const w = await c.workflows.create({ name: "rotate", graphJson: linear(["in", "source.upload"], ["r", "op.pdf.rotate", { degrees: 90 }], ["out", "sink.download"]) });
    const { runId } = await c.workflows.run(w.id, [file]);
    await c.workflows.waitFor(runId);
    const items = (await c.jobs.list()).items;
    expect(items.map((j) => [j.batchId, j.runId])).toEqual([
      [null, runId],
      [batchId, null],
    ]);
  });

  test("refuses a bad limit or cursor", async () => {
    const c = await srv.user();
    for (const limit of ["0", "201", "abc", "1.5"]) await expectApiError(() => c.t.call("GET", `/api/jobs?limit=${limit}`), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.jobs.list({ cursor: "not-a-cursor" }), "VALIDATION_ERROR", 400);
  });
});

describe("POST /api/jobs/{jobId}/cancel", () => {
  test("a queued job never runs, a running one ends cancelled; batch items and workflow steps' jobs are left to their batch and run", async () => {
    const c = await srv.user();
    const long = await longRunning(c);
    // The one tool worker is busy: these wait in the queue behind it.
    const file = await pdf(c);
    const queued = await c.jobs.create({ type: "pdf.rotate", fileIds: [file], params: { degrees: 90 } });
    const { batchId } = await c.batches.create({ type: "pdf.rotate", fileIds: [file], params: { degrees: 90 } });
    const item = (await c.jobs.list()).items.find((j) => j.batchId === batchId)!;
    expect(item.status).toBe("queued");
    const w = await c.workflows.create({ name: "rotate", graphJson: linear(["in", "source.upload"], ["r", "op.pdf.rotate", { degrees: 90 }], ["out", "sink.download"]) });
    const { runId } = await c.workflows.run(w.id, [file]);
    const step = await waitFor("the run's tool job", async () => (await c.jobs.list()).items.find((j) => j.runId === runId), (j) => j !== undefined);

    const inBatch = await expectApiError(() => c.jobs.cancel(item.jobId), "INVALID_STATE", 409);
    expect(inBatch.message).toContain(`batch ${batchId}`);
    const inRun = await expectApiError(() => c.jobs.cancel(step!.jobId), "INVALID_STATE", 409);
    expect(inRun.message).toContain(`run ${runId}`);

    const cancelled = await c.jobs.cancel(queued.jobId);
    expect(cancelled).toMatchObject({ jobId: queued.jobId, status: "cancelled", errorCode: "CANCELLED", startedAt: null, attempts: 0, outputs: [] });
    expect(cancelled.finishedAt).not.toBeNull();

    const stopping = await c.jobs.cancel(long.jobId);
    expect(stopping).toMatchObject({ jobId: long.jobId, status: "running", cancelRequested: true });
    const stopped = await c.jobs.wait(long.jobId, { timeoutMs: 30_000 });
    expect(stopped).toMatchObject({ status: "cancelled", errorCode: "CANCELLED", outputs: [], output: null });

    await c.batches.cancel(batchId);
    await c.workflows.cancel(runId);
    // Queued after the cancelled job: once it ran, the cancelled one had its turn and was skipped.
    const after = await c.jobs.wait((await c.jobs.create({ type: "pdf.rotate", fileIds: [file], params: { degrees: 90 } })).jobId, { timeoutMs: 60_000 });
    expect(after.status).toBe("succeeded");
    expect(await c.jobs.get(queued.jobId)).toMatchObject({ status: "cancelled", startedAt: null, attempts: 0 });

    // Ended jobs: 409, whatever the ending.
    for (const id of [queued.jobId, long.jobId, after.jobId, item.jobId]) {
      const err = await expectApiError(() => c.jobs.cancel(id), "INVALID_STATE", 409);
      expect(err.message).toContain("already ended");
    }
    expect((await c.jobs.get(after.jobId)).status).toBe("succeeded");
  }, 120_000);

  test("another user's job and ids that name no job are 404, and change nothing", async () => {
    const owner = await srv.user();
    const other = await srv.user();
    const long = await longRunning(owner);
    const queued = await owner.jobs.create({ type: "pdf.rotate", fileIds: [await pdf(owner)], params: { degrees: 90 } });
    for (const id of [long.jobId, queued.jobId]) await expectApiError(() => other.jobs.cancel(id), "NOT_FOUND", 404);
    for (const id of ["nope", "job_00000000000000000000", "../cancel", " ", "x".repeat(100)]) await expectApiError(() => owner.jobs.cancel(id), "NOT_FOUND", 404);
    // The owner's token works like the session; no credentials are 401.
    const token = await owner.tokens.create({ name: "cancel", scopes: ["api"] });
    await expectApiError(() => srv.anon().jobs.cancel(queued.jobId), "UNAUTHORIZED", 401);
    expect((await owner.jobs.get(queued.jobId)).status).toBe("queued");
    // As a script would send it: a bare POST, no body.
    const res = await fetch(`${srv.url}/api/jobs/${queued.jobId}/cancel`, { method: "POST", headers: { authorization: `Bearer ${token.token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: Job }).data).toMatchObject({ jobId: queued.jobId, status: "cancelled" });
    expect((await owner.jobs.cancel(long.jobId)).cancelRequested).toBe(true);
    expect((await owner.jobs.wait(long.jobId, { timeoutMs: 30_000 })).status).toBe("cancelled");
  }, 120_000);

  test("both routes are in the OpenAPI document", async () => {
    const doc = (await (await fetch(`${srv.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>> };
    expect(Object.keys(doc.paths["/api/jobs"].get.responses)).toEqual(expect.arrayContaining(["200", "400", "401"]));
    const cancel = doc.paths["/api/jobs/{jobId}/cancel"].post;
    expect(Object.keys(cancel.responses)).toEqual(expect.arrayContaining(["200", "401", "404", "409"]));
    expect(cancel.security).toEqual([{ cookieAuth: [] }, { bearerAuth: [] }]);
  });
});
