/**
 * A tool call's run begun while its job row is inserted (tools/early-run.ts, issue 24): taken by
 * the job only when the insert admits exactly the inputs it read and starts the job here; in every
 * other case dropped, the call answering what it answers without it. Counted by
 * ToolRunService.earlyRuns, which these tests read to tell the two paths apart.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { file } from "../src/db/schema";
import { expectApiError, startTestServer, waitFor, type TestServer } from "./harness";
import { makePdf } from "./fixtures";

type Client = Awaited<ReturnType<TestServer["user"]>>;
type Job = { jobId: string; status: string; errorCode: string | null; outputs: { fileId: string; filename: string }[] };

let srv: TestServer;
beforeAll(async () => {
  // No lane polls during a test: a poll's claim in flight when a call comes makes the call leave
  // the lane to it (JobRunner.reserveToolLane) and start nothing early, which these counts would
  // read as a failure (seen once in CI). Queued jobs still wake the lanes at once.
  srv = await startTestServer({ TOOL_WORKERS: "2", JOB_POLL_MS: "60000" });
});
afterAll(() => srv.close());

const counts = () => ({ ...srv.services.jobs.earlyRuns });

/** Outputs a worker staged (in the local store's temp folder) that nobody moved into place. */
const stagedFiles = () => readdirSync(join(srv.dataDir, "objects", ".tmp")).filter((name) => name.startsWith("out-"));

function since(before: ReturnType<typeof counts>) {
  const now = counts();
  return { started: now.started - before.started, adopted: now.adopted - before.adopted, dropped: now.dropped - before.dropped };
}

async function upload(c: Client, pages: number, filename = "doc.pdf") {
  return c.files.upload(new Blob([await makePdf(pages)]), { filename, mime: "application/pdf" });
}

/** The rotation of each page of an output PDF. */
async function rotations(c: Client, fileId: string): Promise<number[]> {
  const pdf = await PDFDocument.load(await (await c.files.download(fileId)).arrayBuffer());
  return pdf.getPages().map((p) => p.getRotation().angle);
}

const rotate = (c: Client, fileId: string) => c.t.call<Job>("POST", "/api/tools/pdf.rotate", { fileIds: [fileId], params: { degrees: 90 } });

describe("a run begun while its job row is inserted", () => {
  test("a file confirmed here: the call's job takes the run begun early, and its output is the tool's", async () => {
    const c = await srv.user();
    const f = await upload(c, 3);
    const before = counts();
    const job = await rotate(c, f.fileId);
    expect(since(before)).toEqual({ started: 1, adopted: 1, dropped: 0 });
    expect(job.status).toBe("succeeded");
    expect(await rotations(c, job.outputs[0].fileId)).toEqual([90, 90, 90]);
    // The output is known here too: a call on it starts early as well.
    const again = await rotate(c, job.outputs[0].fileId);
    expect(since(before)).toEqual({ started: 2, adopted: 2, dropped: 0 });
    expect(await rotations(c, again.outputs[0].fileId)).toEqual([180, 180, 180]);
  });

  test("a row changed since it was seen here (another process renamed it): the run is dropped, the job runs on the row as it is", async () => {
    const c = await srv.user();
    const f = await upload(c, 1, "before.pdf");
    await srv.services.database.db.update(file).set({ filename: "after.pdf" }).where(eq(file.id, f.fileId));
    const before = counts();
    const job = await rotate(c, f.fileId);
    expect(since(before)).toEqual({ started: 1, adopted: 0, dropped: 1 });
    expect(job.status).toBe("succeeded");
    expect(job.outputs[0].filename).toMatch(/^after/);
    // The dropped run's output, which its worker wrote to the store's staging folder, is removed.
    await waitFor("the dropped run's staged output to go", () => stagedFiles(), (names) => names.length === 0);
  });

  test("another user's file id starts nothing and answers 404; a deleted file's id starts nothing and answers 404", async () => {
    const [owner, other] = [await srv.user(), await srv.user()];
    const f = await upload(owner, 1);
    const before = counts();
    await expectApiError(() => rotate(other, f.fileId), "NOT_FOUND", 404);
    await owner.files.delete(f.fileId);
    await expectApiError(() => rotate(owner, f.fileId), "NOT_FOUND", 404);
    expect(since(before)).toEqual({ started: 0, adopted: 0, dropped: 0 });
  });

  test("a tool failure in a run begun early is the job's failure, recorded as any other", async () => {
    const c = await srv.user();
    // A PDF's signature, then nothing a PDF reader can use.
    const broken = new TextEncoder().encode("%PDF-1.7\n" + "x".repeat(4000) + "\n%%EOF\n");
    const f = await c.files.upload(new Blob([broken]), { filename: "broken.pdf", mime: "application/pdf" });
    const before = counts();
    const job = await rotate(c, f.fileId);
    expect(since(before)).toEqual({ started: 1, adopted: 1, dropped: 0 });
    expect(job).toMatchObject({ status: "failed", outputs: [] });
    expect(job.errorCode).not.toBeNull();
    expect(await c.t.call<Job>("GET", `/api/jobs/${job.jobId}`)).toEqual(job);
  });

  test("over the per-user limit the job waits its turn: the run begun early is dropped, the next call starts none, and the job runs later on its own", async () => {
    const admin = await srv.admin();
    await admin.admin.setConfig("platform_configs", { "processing.max_concurrent_per_user": 1 });
    try {
      const c = await srv.user();
      const slow = await upload(c, 40);
      const small = await upload(c, 1);
      // A long render holds the user's one running job; the second lane of this process stays free.
      const long = await c.t.call<Job>("POST", "/api/files", { type: "pdf.render-png", fileIds: [slow.fileId], params: { dpi: 300 } });
      await waitFor("the render to run", () => c.t.call<Job>("GET", `/api/jobs/${long.jobId}`), (j) => j.status === "running");
      const before = counts();
      const waiting = await c.t.call<Job>("POST", "/api/files", { type: "pdf.rotate", fileIds: [small.fileId], params: { degrees: 90 } });
      expect(waiting.status).toBe("queued");
      expect(since(before)).toEqual({ started: 1, adopted: 0, dropped: 1 });
      const next = await c.t.call<Job>("POST", "/api/files", { type: "pdf.rotate", fileIds: [small.fileId], params: { degrees: 180 } });
      expect(next.status).toBe("queued");
      expect(since(before)).toEqual({ started: 1, adopted: 0, dropped: 1 });
      await c.t.call("POST", `/api/jobs/${long.jobId}/cancel`);
      // Every 250 ms: at 50 ms a minute's polling would pass the rate limit (600 a minute) and fail
      // with 429 instead of saying where the job stands.
      const done = await waitFor("the waiting rotate to end", () => c.t.call<Job>("GET", `/api/jobs/${waiting.jobId}`), (j) => j.status !== "queued" && j.status !== "running", 60_000, 250);
      expect(done.status).toBe("succeeded");
      expect(await rotations(c, done.outputs[0].fileId)).toEqual([90]);
    } finally {
      await admin.admin.setConfig("platform_configs", { "processing.max_concurrent_per_user": 4 });
    }
  });

  // Last: calls that had to wait leave the next call starting nothing early (lastQueued), which the
  // counts of the tests above would see.
  test("calls at once from several users: each job answers the tool's run on its own file", async () => {
    const users = await Promise.all([1, 2, 3].map(async (pages) => ({ pages, c: await srv.user() })));
    const files = await Promise.all(users.map(async (u) => ({ ...u, fileId: (await upload(u.c, u.pages)).fileId })));
    const calls = files.flatMap((f) => [0, 1, 2, 3].map(async () => ({ ...f, job: await rotate(f.c, f.fileId) })));
    for (const { c, pages, job } of await Promise.all(calls)) {
      expect(job.status).toBe("succeeded");
      expect(await rotations(c, job.outputs[0].fileId)).toEqual(Array(pages).fill(90));
    }
    // Runs begun early and dropped (a lane was free here, but other jobs waited) leave no staged output.
    await waitFor("every staged output placed or removed", () => stagedFiles(), (names) => names.length === 0);
  });
});
