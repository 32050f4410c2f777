/**
 * A full disk, for real: DATA_DIR/objects is a tmpfs of a few MB (root may mount one; elsewhere
 * the tests are skipped and say why). A write that meets ENOSPC answers 507 STORAGE_FULL and
 * leaves no partial object, health answers 503 naming the storage check while the disk is full,
 * and everything works again once space is freed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectApiError, startTestServer, waitFor, type TestServer } from "./harness";
import { makePdf, noise, sha256Hex } from "./fixtures";
import { smallDisk } from "./small-disk";

const root = mkdtempSync(join(tmpdir(), "vektor-diskfull-"));
const objects = join(root, "objects");
const disk = smallDisk(objects, 12);
const { skipReason, freeBytes } = disk;
const fillDisk = disk.fill;
if (skipReason) console.warn(`[disk-full] skipped: ${skipReason}`);

let srv: TestServer;
beforeAll(async () => {
  if (skipReason) return;
  srv = await startTestServer({ DATA_DIR: root });
  await (await srv.admin()).admin.setConfig("platform_configs", { "upload.multipart_threshold_mb": 5, "upload.part_size_mb": 5 });
});
afterAll(async () => {
  disk.unmount();
  if (!skipReason) await srv.close().catch(() => {});
  rmSync(root, { recursive: true, force: true });
});

type Presigned = { fileId: string; uploadUrl: string; uploadId?: string; partSize?: number };

/** Files left under .tmp (partial single uploads). */
const tempFiles = () => readdirSync(join(objects, ".tmp")).length;

/** The space taken by a removed file comes back once every handle on it is closed (the hashing thread closes its own a moment later). */
const freeAgain = (bytes: number) => waitFor("the space to be free again", freeBytes, (free) => free >= bytes, 10_000);

async function health() {
  const res = await fetch(`${srv.url}/api/health`);
  return { status: res.status, body: (await res.json()) as { ok: boolean; error?: { code: string; message: string } } };
}

describe.skipIf(skipReason !== null)("a full disk under DATA_DIR", () => {
  test("a single upload that meets ENOSPC is 507 STORAGE_FULL and leaves no partial object; once space is freed the same URL works", async () => {
    const c = await srv.user();
    const before = freeBytes();
    const filler = fillDisk(1024 * 1024);
    const bytes = noise(3 * 1024 * 1024, 3); // under the multipart threshold, over the 1 MiB left
    const p = await c.files.presignUpload<Presigned>({ filename: "big.bin", mime: "application/octet-stream", size: bytes.length });
    const res = await fetch(p.uploadUrl, { method: "PUT", body: bytes }).finally(() => rmSync(filler));
    expect(res.status).toBe(507);
    const body = (await res.json()) as { ok: boolean; error: { code: string; message: string } };
    expect(body).toMatchObject({ ok: false, error: { code: "STORAGE_FULL" } });
    expect(body.error.message).toContain("free space");
    expect(tempFiles()).toBe(0);
    await freeAgain(before);
    // Nothing half-written was kept: the file still has no bytes; the same signed URL works once there is room.
    await expectApiError(() => c.files.confirm(p.fileId), "INVALID_STATE", 409);
    expect((await fetch(p.uploadUrl, { method: "PUT", body: bytes })).status).toBe(200);
    expect(await c.files.confirm(p.fileId)).toMatchObject({ status: "UPLOADED", checksum: sha256Hex(bytes) });
  });

  test("a multipart part that meets ENOSPC is 507 STORAGE_FULL and gives back what it wrote at once; an abort frees the rest", async () => {
    const c = await srv.user();
    const bytes = noise(12 * 1024 * 1024, 5);
    const before = freeBytes();
    const p = await c.files.presignUpload<Presigned>({ filename: "parts.bin", mime: "application/octet-stream", size: bytes.length });
    expect(p.uploadId).toBeString();
    const part = async (n: number) => {
      const { url } = await c.t.call<{ url: string }>("POST", "/api/files/multipart/part", { fileId: p.fileId, uploadId: p.uploadId, partNumber: n });
      return fetch(url, { method: "PUT", body: bytes.subarray((n - 1) * p.partSize!, n * p.partSize!) });
    };
    expect((await part(1)).status).toBe(200);
    const afterFirst = freeBytes();
    const full = await part(2); // 5 MiB more than the 3 left
    expect(full.status).toBe(507);
    expect(await full.json()).toMatchObject({ ok: false, error: { code: "STORAGE_FULL" } });
    // The 3 MiB the failed part did write are not held until the upload ends.
    await waitFor("the failed part's bytes to be given back", freeBytes, (free) => free >= afterFirst - 256 * 1024, 10_000);
    // The failed part does not count: completing with it is refused, not a 500.
    await expectApiError(() => c.t.call("POST", "/api/files/multipart/complete", { fileId: p.fileId, uploadId: p.uploadId, parts: [{ partNumber: 1, etag: "x" }, { partNumber: 2, etag: "y" }] }), "VALIDATION_ERROR", 400);
    await c.t.call("POST", "/api/files/multipart/abort", { fileId: p.fileId, uploadId: p.uploadId });
    await freeAgain(before);
  });

  test("health answers 503 STORAGE_FULL naming the storage check while the disk is full, 200 once it is not", async () => {
    const filler = fillDisk();
    try {
      const sick = await health();
      expect(sick.status).toBe(503);
      expect(sick.body.error?.code).toBe("STORAGE_FULL");
      expect(sick.body.error?.message).toContain("storage check failed");
      // A signed-in caller's upload meets the same answer, and signing in still works (the database is elsewhere).
      const c = await srv.user();
      const pdf = await makePdf(1);
      await expectApiError(() => c.files.upload(new Blob([pdf], { type: "application/pdf" }), { filename: "x.pdf", mime: "application/pdf" }), "STORAGE_FULL", 507);
      expect(tempFiles()).toBe(0);
    } finally {
      rmSync(filler);
    }
    const after = await health();
    expect(after).toMatchObject({ status: 200, body: { ok: true } });
  });
});
