/**
 * The official client against a real server: resuming an interrupted multipart upload sends only
 * the missing parts and gives the same bytes; the batch event iterator follows a real batch to
 * its end (and reconnects when a connection drops); a tool run that answers 202 is polled to the
 * finished job; errors are ApiErrors with the contract's codes. The server answers tool runs
 * with 202 at once here (TOOL_WAIT_MS=0), so every run takes the polling path.
 */
import { ApiError, VektorClient, type MultipartState } from "@vektor/shared/client";
import type { BatchProgress } from "@vektor/shared/schemas/batch";
import type { Job } from "@vektor/shared/schemas/job";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freePort, PASSWORD, startTestServer, type TestServer } from "./harness";
import { makePdf, noise, sha256Hex } from "./fixtures";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ TOOL_WAIT_MS: "0" });
});
afterAll(() => srv.close());

const MB = 1024 * 1024;

/** A fetch that records every request (method and URL) before passing it on. */
function recordingFetch(log: { method: string; url: string }[]): typeof fetch {
  return Object.assign(
    (input: RequestInfo | URL, init?: RequestInit) => {
      log.push({ method: init?.method ?? "GET", url: String(input) });
      return fetch(input, init);
    },
    { preconnect: fetch.preconnect },
  );
}

const partNumbersPut = (log: { method: string; url: string }[]) =>
  log.filter((r) => r.method === "PUT" && /\/parts\/\d+/.test(r.url)).map((r) => Number(/\/parts\/(\d+)/.exec(r.url)![1]));

describe("multipart upload resume", () => {
  test("an upload aborted mid-part resumes from the parts already sent; the bytes and sha256 match", async () => {
    const admin = await srv.admin();
    await admin.admin.setConfig("platform_configs", { "upload.multipart_threshold_mb": 5, "upload.part_size_mb": 5 });
    try {
      const c = await srv.user();
      const bytes = noise(26 * MB, 7); // 6 parts: five of 5 MiB and one of 1 MiB
      const blob = new Blob([bytes]);
      const sha = sha256Hex(bytes);
      let saved: MultipartState | null = null;
      const abort = new AbortController();
      const first: { method: string; url: string }[] = [];
      const interrupted = new VektorClient({ baseUrl: srv.url, cookie: c.t.cookie!, fetch: recordingFetch(first) });
      // One part at a time; stop while the third part's bytes are on the way.
      const upload = interrupted.files.upload(blob, {
        filename: "big.bin",
        mime: "application/octet-stream",
        checksum: sha,
        concurrency: 1,
        onState: (s) => (saved = s),
        onProgress: (sent) => sent > 12 * MB && abort.abort(),
        signal: abort.signal,
      });
      const err = await upload.then(() => null, (e: unknown) => e as Error);
      expect(err?.name).toBe("AbortError");
      const state = saved as MultipartState | null;
      expect(state).not.toBeNull();
      expect(state!.partCount).toBe(6);
      expect(state!.parts.map((p) => p.partNumber).sort()).toEqual([1, 2]);
      expect(partNumbersPut(first)).toEqual([1, 2, 3]); // the third was cut off

      // The state is plain JSON: what a CLI would have written to disk and read back.
      const persisted = JSON.parse(JSON.stringify(state)) as MultipartState;
      const second: { method: string; url: string }[] = [];
      const resumer = new VektorClient({ baseUrl: srv.url, cookie: c.t.cookie!, fetch: recordingFetch(second) });
      const progress: number[] = [];
      const file = await resumer.files.resume(blob, persisted, { mime: "application/octet-stream", onProgress: (sent) => progress.push(sent) });
      expect(partNumbersPut(second).sort()).toEqual([3, 4, 5, 6]);
      expect(second.some((r) => r.method === "POST" && r.url.endsWith("/api/files/presign-upload"))).toBe(false);
      expect(progress[0]).toBeGreaterThan(10 * MB); // counted from the parts already there
      expect(progress.at(-1)).toBe(26 * MB);
      expect(file).toMatchObject({ fileId: persisted.fileId, status: "UPLOADED", size: 26 * MB, checksum: sha });

      const down = await c.files.open(file.fileId);
      expect(down.filename).toBe("big.bin");
      expect(down.size).toBe(26 * MB);
      expect(sha256Hex(new Uint8Array(await new Response(down.body).arrayBuffer()))).toBe(sha);
    } finally {
      await admin.admin.setConfig("platform_configs", { "upload.multipart_threshold_mb": 64, "upload.part_size_mb": 16 });
    }
  });

  test("resuming with other bytes is refused before anything is sent", async () => {
    const c = await srv.user();
    const state: MultipartState = { fileId: "f_x", uploadId: "u", partSize: 5 * MB, partCount: 2, size: 6 * MB, filename: "a.bin", parts: [] };
    const err = await c.files.resume(new Blob([noise(1000)]), state, { mime: "application/octet-stream" }).catch((e: unknown) => e as ApiError);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("VALIDATION_ERROR");
  });
});

async function uploadPdfs(c: VektorClient, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await c.files.upload(new Blob([await makePdf(2, `doc ${i}`)]), { filename: `doc${i}.pdf`, mime: "application/pdf" })).fileId);
  return ids;
}

describe("batch events", () => {
  test("the async iterator follows a real batch to completion and ends by itself", async () => {
    const c = await srv.user();
    const fileIds = await uploadPdfs(c, 3);
    const estimate = await c.batches.estimate(3);
    const { batchId, credits } = await c.batches.create({ type: "pdf.compress", fileIds, name: "three" });
    expect(credits).toBe(estimate.credits);
    const seen: BatchProgress[] = [];
    for await (const ev of c.batches.events(batchId)) seen.push(ev);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toEqual({ total: 3, done: 3, failed: 0, status: "completed" });
    for (let i = 1; i < seen.length; i++) expect(seen[i].done + seen[i].failed).toBeGreaterThanOrEqual(seen[i - 1].done + seen[i - 1].failed);
    const items = await c.batches.items(batchId);
    expect(items.map((f) => f.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    const zip = await c.batches.zip(batchId);
    expect(zip.mime).toBe("application/zip");
    expect(new Uint8Array(await new Response(zip.body).arrayBuffer()).subarray(0, 4)).toEqual(new Uint8Array([0x50, 0x4b, 0x03, 0x04]));
    expect((await c.batches.list()).items.map((b) => b.batchId)).toContain(batchId);
  });

  test("a dropped connection is opened again; no event is repeated", async () => {
    const c = await srv.user();
    const fileIds = await uploadPdfs(c, 2);
    // Pages rendered at 300 dpi keep the batch going well past the first chunk: a batch of quick
    // items can end before the stream opens, and its first chunk then holds the end.
    const { batchId } = await c.batches.create({ type: "pdf.render-png", fileIds, params: { dpi: 300 } });
    let connections = 0;
    // The first connection breaks right after its first chunk, as a proxy timing out would.
    const cutting: typeof fetch = Object.assign(
      async (input: RequestInfo | URL, init?: RequestInit) => {
        const res = await fetch(input, init);
        if (!String(input).endsWith("/events") || ++connections > 1 || !res.body) return res;
        const reader = res.body.getReader();
        const body = new ReadableStream<Uint8Array>({
          async pull(ctl) {
            const { value } = await reader.read();
            ctl.enqueue(value!);
            await reader.cancel();
            ctl.error(new TypeError("connection reset"));
          },
        });
        return new Response(body, { status: res.status, headers: res.headers });
      },
      { preconnect: fetch.preconnect },
    );
    const follower = new VektorClient({ baseUrl: srv.url, cookie: c.t.cookie!, fetch: cutting });
    const seen: string[] = [];
    for await (const ev of follower.batches.events(batchId, { retryMs: 50 })) seen.push(JSON.stringify(ev));
    expect(connections).toBeGreaterThanOrEqual(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(JSON.parse(seen.at(-1)!)).toMatchObject({ total: 2, status: "completed" });
  });

  test("another user's batch: the iterator fails with NOT_FOUND", async () => {
    const c = await srv.user();
    const { batchId } = await c.batches.create({ type: "pdf.compress", fileIds: await uploadPdfs(c, 1) });
    const other = await srv.user();
    const err = await (async () => {
      for await (const _ of other.batches.events(batchId)) return null;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("NOT_FOUND");
    await c.batches.waitFor(batchId);
  });
});

describe("tools", () => {
  test("a run answered with 202 is polled to the finished job", async () => {
    const c = await srv.user();
    const [fileId] = await uploadPdfs(c, 1);
    // Two pages at 300 dpi take far longer than the request's one read of the job: it answers 202
    // (a one-page rotate can end first now that a job starts in the request's own process).
    const raw = await c.t.send<Job>("POST", "/api/tools/pdf.render-png", { fileIds: [fileId], params: { dpi: 300 } });
    expect(raw.status).toBe(202);
    expect(["queued", "running"]).toContain(raw.data.status);
    await c.jobs.wait(raw.data.jobId);

    // The client's run: a render as slow (another dpi, so no earlier output is reused) answers 202
    // and is polled, each state reported. (A one-page rotate could end before the one read: 200, no update.)
    const updates: string[] = [];
    const job = await c.tools.run("pdf.render-png", [fileId], { params: { dpi: 290 }, onUpdate: (j) => updates.push(j.status) });
    expect(job).toMatchObject({ status: "succeeded", errorCode: null, type: "pdf.render-png" });
    expect(updates.length).toBeGreaterThan(0);
    expect(job.outputs).toHaveLength(2);
    expect((await c.jobs.outputs(job.jobId)).map((o) => o.fileId)).toEqual(job.outputs.map((o) => o.fileId));
    const out = await c.files.open(job.outputs[0].fileId);
    expect(out.filename).toBe(job.outputs[0].filename);
    expect([...new Uint8Array(await new Response(out.body).arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  test("a failed job is an answer, not an exception; an unknown tool is NOT_FOUND", async () => {
    const c = await srv.user();
    const bin = await c.files.upload(new Blob([noise(4000)]), { filename: "x.bin", mime: "application/octet-stream" });
    const job = await c.tools.run("pdf.rotate", [bin.fileId]);
    expect(job).toMatchObject({ status: "failed", errorCode: "INPUT_INVALID" });
    const err = await c.tools.run("pdf.teleport", [bin.fileId]).catch((e: unknown) => e as ApiError);
    expect(err).toMatchObject({ code: "NOT_FOUND", status: 404 });
    const index = await c.tools.index();
    expect((await c.tools.lookup(["pdf.rotate"])).map((t) => t.slug)).toEqual(["pdf.rotate"]);
    expect(index.map((t) => t.slug)).toContain("pdf.rotate");
  });
});

describe("errors", () => {
  test("a wrong password is UNAUTHORIZED; a closed port is NETWORK_ERROR", async () => {
    const c = await srv.user();
    const fresh = srv.anon();
    const wrong = await fresh.auth.signIn({ email: c.email, password: `${PASSWORD}x` }).catch((e: unknown) => e as ApiError);
    expect(wrong).toMatchObject({ name: "ApiError", code: "UNAUTHORIZED", status: 401 });
    expect((await fresh.auth.signIn({ email: c.email, password: PASSWORD })).user.email).toBe(c.email);
    const closed = new VektorClient({ baseUrl: `http://127.0.0.1:${await freePort()}` });
    const down = await closed.health().catch((e: unknown) => e as ApiError);
    expect(down).toMatchObject({ code: "NETWORK_ERROR", status: 0 });
  });
});
