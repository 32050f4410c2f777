/** Batches over real HTTP: rules, charges, events, retry, cancel, ZIP, presets, bad input. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import yauzl from "yauzl";
import { expectApiError, startTestServer, type TestServer } from "./harness";
import { makePdf, noise } from "./fixtures";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ JOB_POLL_MS: "100", SSE_HEARTBEAT_MS: "300" });
});
afterAll(() => srv.close());

type Client = Awaited<ReturnType<TestServer["user"]>>;
type Progress = { total: number; done: number; failed: number; status: string };

async function pdfs(c: Client, n: number, name = (i: number) => `doc${i}.pdf`) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await c.files.upload(new Blob([await makePdf(1 + (i % 3), `batch ${i}`)]), { filename: name(i), mime: "application/pdf" })).fileId);
  return ids;
}

/** Reads the SSE stream to its end; returns the progress events and whether heartbeats came. */
async function readEvents(c: Client, batchId: string, opts: { signal?: AbortSignal } = {}) {
  const res = await c.t.fetch(`/api/batch/${batchId}/events`, { signal: opts.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const text = await res.text();
  const events = text
    .split("\n\n")
    .filter((block) => block.includes("event: progress"))
    .map((block) => JSON.parse(block.split("\n").find((l) => l.startsWith("data: "))!.slice(6)) as Progress);
  return { events, heartbeats: text.includes(": heartbeat"), text };
}

/** Runs `fn` with the per-user limit at one job at a time (a batch's later items wait their turn), then back to 4. */
async function oneJobAtATime(fn: () => Promise<void>) {
  const a = await srv.admin();
  await a.admin.setConfig("platform_configs", { "processing.max_concurrent_per_user": 1 });
  try {
    await fn();
  } finally {
    await a.admin.setConfig("platform_configs", { "processing.max_concurrent_per_user": 4 });
  }
}

const detail = (c: Client, id: string) => c.t.call<{ batch: Progress & { credits: number; refunded: number; cancelled: number }; files: { fileId: string; status: string; errorCode: string | null; outFileId: string | null; attempts: number }[] }>("GET", `/api/batch/${id}`);

/** The archive's entries; each entry's stored CRC-32 is checked against its bytes (yauzl does not). */
function zipEntries(bytes: Uint8Array): Promise<{ name: string; method: number; size: number }[]> {
  const path = join(mkdtempSync(join(tmpdir(), "vektor-zip-")), "b.zip");
  writeFileSync(path, bytes);
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: { name: string; method: number; size: number }[] = [];
      zip.on("entry", (e: yauzl.Entry) => {
        out.push({ name: e.fileName, method: e.compressionMethod, size: e.uncompressedSize });
        zip.openReadStream(e, async (streamErr, stream) => {
          if (streamErr || !stream) return reject(streamErr);
          const data = Buffer.concat(await Array.fromAsync(stream as AsyncIterable<Buffer>));
          if (crc32(data) !== e.crc32) return reject(new Error(`CRC-32 of ${e.fileName} does not match its header`));
          zip.readEntry();
        });
      });
      zip.on("end", () => resolve(out));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

describe("settings and estimate", () => {
  test("settings are public; the estimate is base + per_file x N with the plan's maxFiles", async () => {
    const s = await srv.anon().t.call<Record<string, unknown>>("GET", "/api/batch/settings");
    expect(s).toEqual({ enabled: true, engines: ["server"], baseCredits: 1, perFileCredits: 1, maxFiles: { free: 20, pro: 500 }, maxSizeMb: { free: 200, pro: 5000 } });
    const c = await srv.user();
    expect(await c.t.call("POST", "/api/batch/estimate", { fileCount: 7 })).toEqual({ credits: 8, baseCredits: 1, perFileCredits: 1, maxFiles: 20, withinLimit: true });
    expect((await c.t.call<{ withinLimit: boolean }>("POST", "/api/batch/estimate", { fileCount: 21 })).withinLimit).toBe(false);
    await expectApiError(() => c.t.call("POST", "/api/batch/estimate", { fileCount: -1 }), "VALIDATION_ERROR", 400);
  });
});

describe("a batch from creation to ZIP", () => {
  test("charged once; events from first to terminal; items with outputs; ZIP in STORE mode, cached with ETag", async () => {
    const c = await srv.user();
    const ids = await pdfs(c, 4, (i) => (i < 2 ? "same.pdf" : `doc${i}.pdf`));
    const before = (await c.account()).credits;
    const created = await c.t.call<{ batchId: string; credits: number }>("POST", "/api/batch", { type: "pdf.rotate", fileIds: ids, params: { degrees: 90 }, name: "Rotate all" });
    expect(created.credits).toBe(5);
    const { events, text } = await readEvents(c, created.batchId);
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events.at(-1)).toEqual({ total: 4, done: 4, failed: 0, status: "completed" });
    for (let i = 1; i < events.length; i++) expect(JSON.stringify(events[i])).not.toBe(JSON.stringify(events[i - 1]));
    expect(text.trim().endsWith("}")).toBe(true);
    expect((await c.account()).credits).toBe(before - 5);
    expect((await c.credits()).filter((e) => e.ref === created.batchId).map((e) => e.amount)).toEqual([-5]);

    const d = await detail(c, created.batchId);
    expect(d.batch).toMatchObject({ status: "completed", total: 4, done: 4, failed: 0, credits: 5 });
    expect(d.files.map((f) => f.fileId)).toEqual(ids);
    for (const f of d.files) expect(f).toMatchObject({ status: "succeeded", errorCode: null, outFileId: expect.stringMatching(/^f_/) });

    const z1 = await c.t.fetch(`/api/batch/${created.batchId}/zip`);
    expect(z1.status).toBe(200);
    const etag = z1.headers.get("etag")!;
    const bytes1 = new Uint8Array(await z1.arrayBuffer());
    const entries = await zipEntries(bytes1);
    expect(entries.map((e) => e.method)).toEqual([0, 0, 0, 0]);
    const names = entries.map((e) => e.name);
    expect(new Set(names).size).toBe(4);
    expect(names.some((n) => n.includes("(2)"))).toBe(true);
    for (const n of names) expect(n.includes("/") || n.startsWith(".")).toBe(false);
    const z2 = await c.t.fetch(`/api/batch/${created.batchId}/zip`);
    expect(z2.headers.get("etag")).toBe(etag);
    expect(Bun.hash(new Uint8Array(await z2.arrayBuffer()))).toBe(Bun.hash(bytes1));
    expect((await c.t.fetch(`/api/batch/${created.batchId}/zip`, { headers: { "if-none-match": etag } })).status).toBe(304);

    const list = await c.t.call<{ items: { batchId: string; status: string }[] }>("GET", "/api/batch?limit=5");
    expect(list.items[0]).toMatchObject({ batchId: created.batchId, status: "completed" });

    // Retention past the outputs' hours removes the cached ZIP along with the outputs.
    const a = await srv.admin();
    const zipsBefore = Array.from(new Bun.Glob("**/*.zip").scanSync({ cwd: join(srv.dataDir, "objects") })).length;
    await a.admin.runRetention(new Date(Date.now() + 73 * 3_600_000).toISOString());
    expect(Array.from(new Bun.Glob("**/*.zip").scanSync({ cwd: join(srv.dataDir, "objects") })).length).toBe(zipsBefore - 1);
    await expectApiError(() => c.t.call("GET", `/api/batch/${created.batchId}/zip`), "INVALID_STATE", 409);
  });

  test("a corrupt input fails that item with an errorCode; the batch goes on; retry re-runs failed items only, free", async () => {
    const c = await srv.user();
    const ids = await pdfs(c, 2);
    const bad = (await c.files.upload(new Blob([noise(3000)]), { filename: "broken.bin", mime: "application/octet-stream" })).fileId;
    const { batchId } = await c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.compress", fileIds: [ids[0], bad, ids[1]] });
    const { events } = await readEvents(c, batchId);
    expect(events.at(-1)).toEqual({ total: 3, done: 2, failed: 1, status: "completed" });
    const d = await detail(c, batchId);
    expect(d.files[1]).toMatchObject({ fileId: bad, status: "failed", errorCode: "INPUT_INVALID", outFileId: null });
    const credits = (await c.account()).credits;
    expect(await c.t.call("POST", `/api/batch/${batchId}/retry`)).toEqual({ batchId, retriedItems: 1, credits: 0 });
    const again = await readEvents(c, batchId);
    expect(again.events.at(-1)).toEqual({ total: 3, done: 2, failed: 1, status: "completed" });
    const d2 = await detail(c, batchId);
    expect(d2.files.map((f) => f.attempts)).toEqual([1, 1, 1]);
    expect(d2.files[0].outFileId).toBe(d.files[0].outFileId);
    expect((await c.account()).credits).toBe(credits);
    await expectApiError(() => c.t.call("POST", `/api/batch/${batchId}/cancel`), "INVALID_STATE", 409);
  });

  test("every item failing makes the batch failed, and there is no ZIP", async () => {
    const c = await srv.user();
    const bad = (await c.files.upload(new Blob([noise(2000, 5)]), { filename: "x.bin", mime: "application/octet-stream" })).fileId;
    const { batchId } = await c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.rotate", fileIds: [bad] });
    expect((await readEvents(c, batchId)).events.at(-1)).toEqual({ total: 1, done: 0, failed: 1, status: "failed" });
    await expectApiError(() => c.t.call("GET", `/api/batch/${batchId}/zip`), "INVALID_STATE", 409);
  });
});

describe("cancel", () => {
  test("queued items stop and their per-file credits come back; the stream ends cancelled; zip before any output is 409", async () => {
    await oneJobAtATime(async () => {
      const c = await srv.user();
      const ids = await pdfs(c, 6);
      const before = (await c.account()).credits;
      const { batchId } = await c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.render-png", fileIds: ids, params: { dpi: 200 } });
      await expectApiError(() => c.t.call("GET", `/api/batch/${batchId}/zip`), "INVALID_STATE", 409);
      const listening = readEvents(c, batchId);
      const res = await c.t.call<{ cancelledItems: number; refundedCredits: number; status: string }>("POST", `/api/batch/${batchId}/cancel`);
      expect(res.status).toBe("cancelled");
      expect(res.cancelledItems).toBeGreaterThanOrEqual(4);
      expect(res.refundedCredits).toBe(res.cancelledItems);
      expect((await c.account()).credits).toBe(before - 7 + res.refundedCredits);
      expect((await listening).events.at(-1)?.status).toBe("cancelled");
      const d = await detail(c, batchId);
      expect(d.files.filter((f) => f.status === "cancelled").length).toBe(res.cancelledItems);
      await expectApiError(() => c.t.call("POST", `/api/batch/${batchId}/cancel`), "INVALID_STATE", 409);
    });
  });
});

describe("bad input", () => {
  test("bodies, ids, types, params and engines", async () => {
    const c = await srv.user();
    const other = await srv.user();
    const [id] = await pdfs(c, 1);
    const [theirs] = await pdfs(other, 1);
    const gone = (await pdfs(c, 1))[0];
    await c.files.delete(gone);
    const post = (body: unknown) => c.t.call("POST", "/api/batch", body);
    await expectApiError(() => post({ type: "pdf.rotate", fileIds: [] }), "VALIDATION_ERROR", 400);
    await expectApiError(() => post({ type: "pdf.rotate", fileIds: [id, id] }), "VALIDATION_ERROR", 400);
    await expectApiError(() => post({ type: "pdf.rotate", fileIds: Array.from({ length: 10_000 }, (_, i) => `f_${i}`) }), "LIMIT_EXCEEDED", 422);
    await expectApiError(() => post({ type: "pdf.rotate", fileIds: [gone] }), "NOT_FOUND", 404);
    await expectApiError(() => post({ type: "pdf.rotate", fileIds: [theirs] }), "NOT_FOUND", 404);
    await expectApiError(() => post({ type: "pdf.nothing", fileIds: [id] }), "VALIDATION_ERROR", 400);
    await expectApiError(() => post({ type: "pdf.merge", fileIds: [id] }), "VALIDATION_ERROR", 400);
    await expectApiError(() => post({ type: "pdf.rotate", fileIds: [id], params: { degrees: 45 } }), "VALIDATION_ERROR", 400);
    await expectApiError(() => post({ type: "pdf.rotate", fileIds: [id], engine: "quantum" }), "VALIDATION_ERROR", 400);
    await expectApiError(() => post({ type: "pdf.rotate", fileIds: "all" }), "VALIDATION_ERROR", 400);
    const pending = await c.files.presignUpload<{ fileId: string }>({ filename: "p.pdf", mime: "application/pdf", size: 10 });
    await expectApiError(() => post({ type: "pdf.rotate", fileIds: [pending.fileId] }), "INVALID_STATE", 409);
    await expectApiError(() => other.t.call("GET", `/api/batch/b_nope`), "NOT_FOUND", 404);
    expect((await c.t.call<{ items: unknown[] }>("GET", "/api/batch")).items).toEqual([]);
    expect((await c.account()).credits).toBe(100);
  });

  test("another user's batch is 404 everywhere", async () => {
    const c = await srv.user();
    const other = await srv.user();
    const { batchId } = await c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.rotate", fileIds: await pdfs(c, 1) });
    for (const [m, p] of [["GET", ""], ["POST", "/cancel"], ["POST", "/retry"], ["GET", "/events"], ["GET", "/zip"]] as const) {
      const res = await other.t.fetch(`/api/batch/${batchId}${p}`, { method: m });
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe("NOT_FOUND");
    }
  });

  test("total size over batch.max_size_mb is 422; batch.enabled off is 403", async () => {
    const a = await srv.admin();
    const c = await srv.user();
    const ids = await pdfs(c, 2);
    await a.admin.setConfig("batch_configs", { "batch.max_size_mb_free": 1 });
    const big = (await c.files.upload(new Blob([noise(1_200_000)]), { filename: "big.bin", mime: "application/octet-stream" })).fileId;
    try {
      await expectApiError(() => c.t.call("POST", "/api/batch", { type: "pdf.rotate", fileIds: [...ids, big] }), "LIMIT_EXCEEDED", 422);
      await a.admin.setConfig("batch_configs", { "batch.enabled": false });
      await expectApiError(() => c.t.call("POST", "/api/batch", { type: "pdf.rotate", fileIds: ids }), "FEATURE_DISABLED", 403);
    } finally {
      await a.admin.setConfig("batch_configs", { "batch.max_size_mb_free": 200, "batch.enabled": true });
    }
  });

  test("short of credits: 402 and nothing created; two concurrent creations over the balance: exactly one succeeds", async () => {
    const a = await srv.admin();
    const c = await srv.user();
    const ids = await pdfs(c, 3);
    await a.admin.grantCredits({ email: c.email, amount: -97, reason: "test" }); // 3 left; 3 files cost 4
    await expectApiError(() => c.t.call("POST", "/api/batch", { type: "pdf.rotate", fileIds: ids }), "INSUFFICIENT_CREDITS", 402);
    expect((await c.t.call<{ items: unknown[] }>("GET", "/api/batch")).items).toEqual([]);
    const two = ids.slice(0, 2); // 3 credits each; 3 in the balance
    const results = await Promise.allSettled([0, 1].map(() => c.t.call("POST", "/api/batch", { type: "pdf.rotate", fileIds: two })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason.code).toBe("INSUFFICIENT_CREDITS");
    expect((await c.account()).credits).toBe(0);
    expect((await c.t.call<{ items: unknown[] }>("GET", "/api/batch")).items).toHaveLength(1);
  });
});

describe("events and presets", () => {
  test("the first event comes at once, heartbeats flow, and many listeners share one polling loop", async () => {
    await oneJobAtATime(async () => {
      const c = await srv.user();
      const { batchId } = await c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.render-png", fileIds: await pdfs(c, 5), params: { dpi: 150 } });
      const ticksBefore = srv.services.batchEvents.ticks;
      const started = Date.now();
      const listeners = await Promise.all(Array.from({ length: 8 }, () => readEvents(c, batchId)));
      const elapsed = Date.now() - started;
      for (const l of listeners) expect(l.events.at(-1)).toEqual({ total: 5, done: 5, failed: 0, status: "completed" });
      const ticks = srv.services.batchEvents.ticks - ticksBefore;
      // The poll's reads, and a few more when items' ends are heard (the first one, and the last open ones).
      expect(ticks).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 5);
      expect(listeners.some((l) => l.heartbeats)).toBe(true);
    });
  });

  test("a finished batch's stream sends its terminal event at once and closes", async () => {
    const c = await srv.user();
    const { batchId } = await c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.rotate", fileIds: await pdfs(c, 1) });
    await readEvents(c, batchId);
    const ticksBefore = srv.services.batchEvents.ticks;
    const again = await readEvents(c, batchId);
    expect(again.events).toEqual([{ total: 1, done: 1, failed: 0, status: "completed" }]);
    // "At once" without a clock (a wall-time bound fails on a busy machine): the event came from the
    // stream's own first read, before the shared poll ticked (100 ms) or a heartbeat went out (300 ms).
    expect(srv.services.batchEvents.ticks).toBe(ticksBefore);
    expect(again.heartbeats).toBe(false);
  });

  test("presets: create with a validated type and params, then list", async () => {
    const c = await srv.user();
    const p = await c.t.call<{ id: string }>("POST", "/api/batch/presets", { name: "Strong", type: "pdf.compress", params: { level: 9 } });
    expect(await c.t.call("GET", "/api/batch/presets")).toEqual([{ id: p.id, name: "Strong", type: "pdf.compress", params: { level: 9 }, engine: "server", createdAt: expect.any(String) }]);
    await expectApiError(() => c.t.call("POST", "/api/batch/presets", { name: "x", type: "nope.nope" }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.t.call("POST", "/api/batch/presets", { name: "x", type: "pdf.compress", params: { level: 0 } }), "VALIDATION_ERROR", 400);
    expect(await (await srv.user()).t.call("GET", "/api/batch/presets")).toEqual([]);
  });
});

describe("a batch's end", () => {
  // The poll is a minute here: a terminal event that waited for it would come a minute after the
  // stream opened. Its items' ends are heard instead (NOTIFY vektor_batches), from the process
  // that ran them, and the end is read when the last one is.
  let slow: TestServer;
  beforeAll(async () => {
    slow = await startTestServer({ JOB_POLL_MS: "60000", SSE_HEARTBEAT_MS: "300" });
  });
  afterAll(() => slow?.close());

  test("reaches its stream when the last item ends, not at the next poll", async () => {
    const a = await slow.admin();
    await a.admin.setConfig("platform_configs", { "processing.max_concurrent_per_user": 1 });
    const c = await slow.user();
    const { batchId } = await c.t.call<{ batchId: string }>("POST", "/api/batch", { type: "pdf.render-png", fileIds: await pdfs(c, 4), params: { dpi: 150 } });
    const started = Date.now();
    const { events } = await readEvents(c, batchId);
    const elapsed = Date.now() - started;
    // The stream opened before the items ended (else its first event would be the last, and prove nothing).
    expect(events[0].status).not.toBe("completed");
    expect(events.at(-1)).toEqual({ total: 4, done: 4, failed: 0, status: "completed" });
    expect(elapsed).toBeLessThan(40_000);
  }, 120_000);
});
