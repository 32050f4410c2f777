/**
 * Issue 22, item 6: the file list answers the caller's ready file with some bytes (reuse by
 * checksum instead of a second upload), searches by name, and every output names its source
 * (job, tool, input, batch or workflow run). Other users' files are never matched.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { VektorClient } from "@vektor/shared/client";
import { expectApiError, startTestServer, type TestServer } from "./harness";
import { makePdf, sha256Hex } from "./fixtures";
import { linear } from "./graphs";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

const upload = (c: VektorClient, bytes: Uint8Array<ArrayBuffer>, filename: string) => c.files.upload(new Blob([bytes]), { filename, mime: "application/pdf" });
const ids = (page: { items: { fileId: string }[] }) => page.items.map((f) => f.fileId);

describe("reuse by checksum", () => {
  test("the owner's ready file with those bytes is answered; another owner's never is", async () => {
    const [alice, bob] = [await srv.user(), await srv.user()];
    const bytes = await makePdf(2, "shared bytes");
    const sum = sha256Hex(bytes);
    const mine = await upload(alice, bytes, "plan.pdf");
    await upload(alice, await makePdf(3, "other bytes"), "other.pdf");

    expect(ids(await alice.files.list({ checksum: sum }))).toEqual([mine.fileId]);
    expect(ids(await alice.files.list({ checksum: sum.toUpperCase() }))).toEqual([mine.fileId]);
    // Bob has not uploaded these bytes: Alice's file is not his to reuse, nor revealed.
    expect(ids(await bob.files.list({ checksum: sum }))).toEqual([]);
    const his = await upload(bob, bytes, "plan.pdf");
    expect(ids(await bob.files.list({ checksum: sum }))).toEqual([his.fileId]);
    expect(ids(await alice.files.list({ checksum: sum }))).toEqual([mine.fileId]);
  });

  test("an upload that is not confirmed is not reused, even when it declared the checksum", async () => {
    const c = await srv.user();
    const bytes = await makePdf(1, "pending");
    const sum = sha256Hex(bytes);
    const pending = await c.files.presignUpload<{ fileId: string; uploadUrl: string }>({ filename: "p.pdf", mime: "application/pdf", size: bytes.length, checksum: sum });
    expect(ids(await c.files.list({ checksum: sum }))).toEqual([]);
    // Bytes sent but not confirmed: still not ready.
    expect((await fetch(pending.uploadUrl, { method: "PUT", body: bytes })).status).toBe(200);
    expect(ids(await c.files.list({ checksum: sum }))).toEqual([]);
    await c.files.confirm(pending.fileId);
    expect(ids(await c.files.list({ checksum: sum }))).toEqual([pending.fileId]);
  });

  test("a deleted file is no longer answered", async () => {
    const c = await srv.user();
    const bytes = await makePdf(1, "deleted");
    const f = await upload(c, bytes, "gone.pdf");
    await c.files.delete(f.fileId);
    expect(ids(await c.files.list({ checksum: sha256Hex(bytes) }))).toEqual([]);
  });
});

describe("the source of an output", () => {
  test("a single run: the job, its tool and the input by name, in the detail and the list", async () => {
    const c = await srv.user();
    const input = await upload(c, await makePdf(2), "drawing.pdf");
    const job = await c.tools.run("pdf.compress", [input.fileId]);
    expect(job.status).toBe("succeeded");
    const outId = job.outputs[0]!.fileId;
    const source = { jobId: job.jobId, tool: "pdf.compress", inputFileId: input.fileId, inputFilename: "drawing.pdf" };
    const detail = await c.files.get(outId);
    expect(detail.source).toEqual(source);
    expect(detail.jobId).toBe(job.jobId);
    expect((await c.files.list()).items.find((f) => f.fileId === outId)?.source).toEqual(source);
    // The input is no output: it has no source, and it names its latest output.
    const inputNow = await c.files.get(input.fileId);
    expect(inputNow.source).toBeUndefined();
    expect(inputNow.outFileId).toBe(outId);
    // The input deleted, the output still names its job and tool; the name is gone with the file.
    await c.files.delete(input.fileId);
    expect((await c.files.get(outId)).source).toEqual({ ...source, inputFilename: null });
  });

  test("a batch item's output names its batch", async () => {
    const c = await srv.user();
    const input = await upload(c, await makePdf(1), "sheet.pdf");
    const { batchId } = await c.batches.create({ type: "pdf.rotate", fileIds: [input.fileId], params: { degrees: 90 } });
    await c.batches.waitFor(batchId);
    const [item] = await c.batches.items(batchId);
    expect(item!.outFileId).toBeTruthy();
    const out = await c.files.get(item!.outFileId!);
    expect(out.source).toMatchObject({ tool: "pdf.rotate", inputFileId: input.fileId, inputFilename: "sheet.pdf", batchId });
    expect(out.source!.runId).toBeUndefined();
  });

  test("a workflow run's output names its run", async () => {
    const c = await srv.user();
    const input = await upload(c, await makePdf(1), "flow.pdf");
    const w = await c.workflows.create({ name: "compress", graphJson: linear(["in", "source.upload"], ["zip", "op.pdf.compress"], ["out", "sink.download"]) });
    const done = await c.workflows.runAndWait(w.id, [input.fileId]);
    expect(done.run.status).toBe("succeeded");
    const out = await c.files.get(done.run.outputFileIds[0]!);
    expect(out.source).toMatchObject({ runId: done.run.runId });
    expect(out.source!.batchId).toBeUndefined();
  });
});

describe("search by name", () => {
  test("q keeps names containing it, case-insensitive, % and _ taken literally, paged", async () => {
    const c = await srv.user();
    const named = async (filename: string) => (await upload(c, await makePdf(1, filename), filename)).fileId;
    const planA = await named("Site plan A.pdf");
    const planB = await named("site-PLAN-b.pdf");
    const percent = await named("100%_done.pdf");
    await named("elevation.pdf");
    expect(ids(await c.files.list({ q: "plan" }))).toEqual([planB, planA]);
    expect(ids(await c.files.list({ q: "%" }))).toEqual([percent]);
    expect(ids(await c.files.list({ q: "_" }))).toEqual([percent]);
    expect(ids(await c.files.list({ q: "nothing like it" }))).toEqual([]);
    const first = await c.files.list({ q: "PLAN", limit: 1 });
    expect(ids(first)).toEqual([planB]);
    const second = await c.files.list({ q: "PLAN", limit: 1, cursor: first.nextCursor! });
    expect(ids(second)).toEqual([planA]);
    expect(second.nextCursor).toBeNull();
    // Another user's files are not searched.
    expect(ids(await (await srv.user()).files.list({ q: "plan" }))).toEqual([]);
  });
});

describe("bad input answers the envelope", () => {
  const raw = async (c: VektorClient, query: string) => {
    const res = await c.t.fetch(`/api/files?${query}`);
    return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
  };

  test("a malformed checksum, an overlong q, a bad cursor", async () => {
    const c = await srv.user();
    for (const query of ["checksum=xyz", `checksum=${"a".repeat(63)}`, `q=${"x".repeat(256)}`, "q=plan&cursor=not-a-cursor"]) {
      const { status, body } = await raw(c, query);
      expect({ query, status, code: body.error?.code }).toEqual({ query, status: 400, code: "VALIDATION_ERROR" });
    }
  });

  test("anonymous callers are refused; another user's file id is not found", async () => {
    const owner = await srv.user();
    const f = await upload(owner, await makePdf(1), "mine.pdf");
    await expectApiError(() => srv.anon().files.list({ checksum: f.checksum! }), "UNAUTHORIZED", 401);
    await expectApiError(() => srv.anon().files.list({ q: "mine" }), "UNAUTHORIZED", 401);
    await expectApiError(async () => (await srv.user()).files.get(f.fileId), "NOT_FOUND", 404);
  });
});
