/**
 * The object store goes away: with S3 storage (s3rver on loopback) stopped, a confirm and a
 * download answer 503 STORAGE_UNAVAILABLE with Retry-After (not 500), health answers 503 naming
 * the storage check, and once the store is back on the same port and data both work again.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { expectApiError, startTestServer, waitFor, type TestServer } from "./harness";
import { makePdf, sha256Hex } from "./fixtures";

let s3: S3rver | null = null;
let s3Dir: string;
let s3Port = 0;
let srv: TestServer;

async function startStore(): Promise<void> {
  s3 = new S3rver({ address: "127.0.0.1", port: s3Port, silent: true, directory: s3Dir, configureBuckets: [{ name: "vektor-files" }] });
  s3Port = (await s3.run()).port;
}

async function stopStore(): Promise<void> {
  await s3?.close();
  s3 = null;
}

beforeAll(async () => {
  s3Dir = mkdtempSync(join(tmpdir(), "vektor-s3-outage-"));
  await startStore();
  srv = await startTestServer({ S3_ENDPOINT: `http://127.0.0.1:${s3Port}`, S3_BUCKET: "vektor-files", S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER", S3_REGION: "us-east-1" });
});

afterAll(async () => {
  await srv?.close();
  await stopStore();
  rmSync(s3Dir, { recursive: true, force: true });
});

describe("the object store goes away", () => {
  test("confirm and download answer 503 STORAGE_UNAVAILABLE, health names the store; all works again once it is back", async () => {
    const c = await srv.user();
    const bytes = await makePdf(2);
    const kept = await c.files.upload(new Blob([bytes]), { filename: "kept.pdf", mime: "application/pdf" });
    const pending = await c.files.presignUpload<{ fileId: string; uploadUrl: string }>({ filename: "late.pdf", mime: "application/pdf", size: bytes.length });
    expect((await fetch(pending.uploadUrl, { method: "PUT", body: bytes })).status).toBe(200);

    await stopStore();
    try {
      const confirm = await expectApiError(() => c.files.confirm(pending.fileId), "STORAGE_UNAVAILABLE", 503);
      expect(confirm.message).toContain("retry");
      const download = await fetch(`${srv.url}/api/files/download/${kept.fileId}`, { headers: { cookie: c.t.cookie! } });
      expect(download.status).toBe(503);
      expect(download.headers.get("retry-after")).toBe("30");
      expect(await download.json()).toMatchObject({ ok: false, error: { code: "STORAGE_UNAVAILABLE" } });
      const health = await fetch(`${srv.url}/api/health`);
      expect(health.status).toBe(503);
      const body = (await health.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("STORAGE_UNAVAILABLE");
      expect(body.error.message).toContain("storage check failed");
      // The file that could not be confirmed is still waiting, not failed.
      expect((await c.files.get(pending.fileId)).status).toBe("PENDING");
    } finally {
      await startStore();
    }

    await waitFor("health to be 200 again", () => fetch(`${srv.url}/api/health`).then((r) => r.status), (s) => s === 200, 30_000, 200);
    expect(await c.files.confirm(pending.fileId)).toMatchObject({ status: "UPLOADED", checksum: sha256Hex(bytes) });
    expect(new Uint8Array(await (await c.files.download(kept.fileId)).arrayBuffer())).toEqual(bytes);
  }, 60_000);

  test("a batch's tool jobs wait while the store is away and finish once it is back: nothing failed, charged once", async () => {
    const c = await srv.user();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await c.files.upload(new Blob([await makePdf(2, `outage ${i}`)]), { filename: `o${i}.pdf`, mime: "application/pdf" })).fileId);
    const before = (await c.account()).credits;
    await stopStore();
    type Detail = { batch: { status: string; done: number; failed: number }; files: { status: string; errorCode: string | null; outFileId: string | null }[] };
    let created: { batchId: string; credits: number };
    try {
      created = await c.t.call<{ batchId: string; credits: number }>("POST", "/api/batch", { type: "pdf.rotate", fileIds: ids, params: { degrees: 90 } });
      // The jobs meet the outage and wait: none fails, and they say what they wait for.
      const waiting = await waitFor(
        "the jobs to meet the outage",
        () => c.t.call<Detail>("GET", `/api/batch/${created.batchId}`),
        (d) => d.files.every((f) => f.errorCode === "STORAGE_UNAVAILABLE"),
        30_000,
        200,
      );
      expect(waiting.batch.failed).toBe(0);
      await Bun.sleep(3000); // a few more rounds of waiting
      const still = await c.t.call<Detail>("GET", `/api/batch/${created.batchId}`);
      expect(still.files.filter((f) => f.status === "failed")).toEqual([]);
    } finally {
      await startStore();
    }
    const done = await waitFor("the batch to end", () => c.t.call<Detail>("GET", `/api/batch/${created.batchId}`), (d) => ["completed", "failed", "cancelled"].includes(d.batch.status), 60_000, 200);
    expect(done.batch).toMatchObject({ status: "completed", done: 4, failed: 0 });
    for (const f of done.files) expect(f).toMatchObject({ status: "succeeded", errorCode: null });
    expect((await c.credits()).filter((e) => e.ref === created.batchId).map((e) => e.amount)).toEqual([-created.credits]);
    expect((await c.account()).credits).toBe(before - created.credits);
  }, 120_000);
});
