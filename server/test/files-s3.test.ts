/**
 * The files endpoints with S3-compatible storage (S3_* variables): a real S3-protocol server
 * (s3rver) on 127.0.0.1. Upload URLs then point at the store itself; everything else is the same.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { expectApiError, startTestServer, type TestServer } from "./harness";
import { makePdf, noise, sha256Hex } from "./fixtures";

let s3: S3rver;
let s3Dir: string;
let s3Url: string;
let srv: TestServer;

beforeAll(async () => {
  s3Dir = mkdtempSync(join(tmpdir(), "vektor-s3-"));
  s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: "vektor-files" }] });
  const { port } = await s3.run();
  s3Url = `http://127.0.0.1:${port}`;
  srv = await startTestServer({ S3_ENDPOINT: s3Url, S3_BUCKET: "vektor-files", S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER", S3_REGION: "us-east-1" });
});

afterAll(async () => {
  await srv?.close();
  await s3?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

describe("files on S3-compatible storage", () => {
  test("health and status report the S3 store", async () => {
    expect((await srv.anon().health()).status).toBe("ok");
    expect((await srv.anon().status()).storage).toBe("s3");
  });

  test("single upload goes straight to the store; confirm, download, presigned download, delete", async () => {
    const c = await srv.user();
    const bytes = await makePdf(3);
    const p = await c.files.presignUpload<{ uploadUrl: string; fileId: string }>({ filename: "s3.pdf", mime: "application/pdf", size: bytes.length });
    expect(p.uploadUrl.startsWith(`${s3Url}/vektor-files/`)).toBe(true);
    await c.files.delete(p.fileId);
    const f = await c.files.upload(new Blob([bytes]), { filename: "s3.pdf", mime: "application/pdf", checksum: sha256Hex(bytes) });
    expect(f).toMatchObject({ status: "UPLOADED", format: "pdf", size: bytes.length, checksum: sha256Hex(bytes) });
    expect(new Uint8Array(await (await c.files.download(f.fileId)).arrayBuffer())).toEqual(bytes);
    const ranged = await c.files.download(f.fileId, { range: "bytes=0-3" });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe("%PDF");
    const { url } = await c.files.presignDownload(f.fileId);
    expect(url.startsWith(s3Url)).toBe(true);
    expect(new Uint8Array(await (await fetch(url)).arrayBuffer())).toEqual(bytes);
    await c.files.delete(f.fileId);
    await expectApiError(() => c.files.get(f.fileId), "NOT_FOUND", 404);
  });

  test("multipart upload with presigned part URLs and the store's ETags", async () => {
    const a = await srv.admin();
    await a.admin.setConfig("platform_configs", { "upload.multipart_threshold_mb": 5, "upload.part_size_mb": 5 });
    try {
      const c = await srv.user();
      const bytes = noise(11 * 1024 * 1024 + 5, 3);
      const f = await c.files.upload(new Blob([bytes]), { filename: "parts.bin", mime: "application/octet-stream" });
      expect(f).toMatchObject({ status: "UPLOADED", size: bytes.length, checksum: sha256Hex(bytes) });
      const back = new Uint8Array(await (await c.files.download(f.fileId)).arrayBuffer());
      expect(sha256Hex(back)).toBe(sha256Hex(bytes));
    } finally {
      await a.admin.setConfig("platform_configs", { "upload.multipart_threshold_mb": 64, "upload.part_size_mb": 16 });
    }
  });

  test("a signature mismatch removes the object from the store", async () => {
    const c = await srv.user();
    await expectApiError(() => c.files.upload(new Blob([noise(4000)]), { filename: "x.pdf", mime: "application/pdf" }), "FILE_SIGNATURE_MISMATCH", 422);
    expect((await c.files.list()).items).toEqual([]);
  });
});
