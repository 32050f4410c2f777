/** Uploads (single and multipart), confirm checks, list, detail, download, delete, isolation, retention. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VektorClient } from "@vektor/shared/client";
import { expectApiError, PASSWORD, startTestServer, type TestServer } from "./harness";
import { fixture, makePdf, noise, sha256Hex } from "./fixtures";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

type Presigned = { fileId: string; uploadUrl: string; multipart: boolean; uploadId?: string; partSize?: number; partCount?: number };
const pdfBlob = async (pages = 2) => new Blob([await makePdf(pages)], { type: "application/pdf" });

function objectFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) e.isDirectory() ? walk(join(d, e.name)) : out.push(join(d, e.name));
  };
  walk(join(srv.dataDir, "objects"));
  return out;
}

describe("single upload", () => {
  test("presign -> PUT -> confirm -> detail, list, download with the same bytes", async () => {
    const c = await srv.user();
    const bytes = await makePdf(3);
    const f = await c.files.upload(new Blob([bytes]), { filename: "report.pdf", mime: "application/pdf", checksum: sha256Hex(bytes) });
    expect(f).toMatchObject({ filename: "report.pdf", mime: "application/pdf", size: bytes.length, checksum: sha256Hex(bytes), status: "UPLOADED", format: "pdf" });
    expect(await c.files.get(f.fileId)).toEqual(f);
    const list = await c.files.list();
    expect(list.items.map((x) => x.fileId)).toEqual([f.fileId]);
    const res = await c.files.download(f.fileId);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("content-disposition")).toContain('filename="report.pdf"');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  test("the upload URL is absolute, signed, expires in 15 minutes and needs no cookie", async () => {
    const c = await srv.user();
    const bytes = await makePdf(1);
    const p = await c.files.presignUpload<Presigned & { expiresAt: string }>({ filename: "a.pdf", mime: "application/pdf", size: bytes.length });
    expect(p.uploadUrl.startsWith(`${srv.url}/api/files/upload/${p.fileId}?`)).toBe(true);
    const minutes = (new Date(p.expiresAt).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    const put = await fetch(p.uploadUrl, { method: "PUT", body: bytes });
    expect(put.status).toBe(200);
    expect((await c.files.confirm(p.fileId)).status).toBe("UPLOADED");
  });

  test("Range requests answer 206 with the slice; an unsatisfiable range 416", async () => {
    const c = await srv.user();
    const bytes = await makePdf(2);
    const f = await c.files.upload(new Blob([bytes]), { filename: "r.pdf", mime: "application/pdf" });
    const part = await c.files.download(f.fileId, { range: "bytes=10-19" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-19/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(10, 20));
    const tail = await c.files.download(f.fileId, { range: "bytes=-5" });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.slice(-5));
    const bad = await c.files.download(f.fileId, { range: `bytes=${bytes.length + 10}-` });
    expect(bad.status).toBe(416);
    expect((await bad.json()).error.code).toBe("VALIDATION_ERROR");
  });

  test("presign-download gives a signed URL that works without a cookie; tampering breaks it", async () => {
    const c = await srv.user();
    const bytes = await makePdf(1);
    const f = await c.files.upload(new Blob([bytes]), { filename: "d.pdf", mime: "application/pdf" });
    const { url } = await c.files.presignDownload(f.fileId);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    const tampered = await fetch(url.replace(/sig=./, (m) => (m.endsWith("A") ? "sig=B" : "sig=A")));
    expect(tampered.status).toBe(401);
  });

  test("upload progress reaches the total", async () => {
    const c = await srv.user();
    const bytes = await makePdf(5);
    const seen: number[] = [];
    await c.files.upload(new Blob([bytes]), { filename: "p.pdf", mime: "application/pdf", onProgress: (sent) => seen.push(sent) });
    expect(seen.at(-1)).toBe(bytes.length);
  });

  test("a real LAS and IFC pass the signature check", async () => {
    const c = await srv.user();
    const las = await c.files.upload(fixture("pointcloud/Haystack_Rock.las"), { filename: "rock.las", mime: "application/vnd.las" });
    expect(las.format).toBe("las");
    const ifc = await c.files.upload(fixture("bim/example.ifc"), { filename: "example.ifc", mime: "application/x-step-ifc" });
    expect(ifc.format).toBe("ifc");
  });

  test("a file of an unknown type is stored as a generic file", async () => {
    const c = await srv.user();
    const f = await c.files.upload(new Blob([noise(1000)]), { filename: "blob.bin", mime: "application/octet-stream" });
    expect(f).toMatchObject({ status: "UPLOADED", format: null });
  });
});

describe("multipart upload", () => {
  // 5 MiB parts above 5 MiB for every test here, so a few MiB make a multipart upload.
  beforeAll(async () => {
    await (await srv.admin()).admin.setConfig("platform_configs", { "upload.multipart_threshold_mb": 5, "upload.part_size_mb": 5 });
  });
  afterAll(async () => {
    await (await srv.admin()).admin.setConfig("platform_configs", { "upload.multipart_threshold_mb": 64, "upload.part_size_mb": 16 });
  });

  test("above the threshold: parts in parallel, complete, confirm, same bytes back", async () => {
    const c = await srv.user();
    const bytes = noise(12 * 1024 * 1024 + 123, 7);
    const p = await c.files.presignUpload<Presigned>({ filename: "big.bin", mime: "application/octet-stream", size: bytes.length });
    expect(p).toMatchObject({ multipart: true, partSize: 5 * 1024 * 1024, partCount: 3 });
    const progress: number[] = [];
    await c.files.delete(p.fileId);
    const f = await c.files.upload(new Blob([bytes]), { filename: "big.bin", mime: "application/octet-stream", checksum: sha256Hex(bytes), onProgress: (s) => progress.push(s) });
    expect(f).toMatchObject({ size: bytes.length, checksum: sha256Hex(bytes), status: "UPLOADED" });
    expect(progress.at(-1)).toBe(bytes.length);
    const back = new Uint8Array(await (await c.files.download(f.fileId)).arrayBuffer());
    expect(back.length).toBe(bytes.length);
    expect(sha256Hex(back)).toBe(sha256Hex(bytes));
  });

  test("the client asks for the next part's URL while the current part is still uploading", async () => {
    const events: string[] = [];
    const logging = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      const what = url.pathname.endsWith("/multipart/part") ? `url ${JSON.parse(String(init?.body)).partNumber}` : url.pathname.includes("/parts/") ? `put ${url.pathname.split("/").pop()}` : null;
      if (what) events.push(`${what} start`);
      const res = await fetch(input, init);
      if (what) events.push(`${what} end`);
      return res;
    }) as typeof fetch;
    const c = new VektorClient({ baseUrl: srv.url, fetch: logging });
    await c.auth.signUp({ name: "prefetch", email: `prefetch-${crypto.randomUUID().slice(0, 8)}@example.test`, password: PASSWORD });
    const bytes = noise(11 * 1024 * 1024, 9);
    const f = await c.files.upload(new Blob([bytes]), { filename: "big.bin", mime: "application/octet-stream", concurrency: 1 });
    expect(f).toMatchObject({ size: bytes.length, checksum: sha256Hex(bytes) });
    expect(events.filter((e) => /^put \d+ end$/.test(e)).length).toBe(3);
    for (const n of [2, 3]) expect(events.indexOf(`url ${n} start`)).toBeLessThan(events.indexOf(`put ${n - 1} end`));
  });

  test("a declared checksum that the parts do not match is refused at confirm (the digest taken while parts arrived is checked)", async () => {
    const c = await srv.user();
    const bytes = noise(11 * 1024 * 1024, 8);
    const wrong = sha256Hex(bytes.subarray(1));
    await expectApiError(() => c.files.upload(new Blob([bytes]), { filename: "big.bin", mime: "application/octet-stream", checksum: wrong }), "FILE_SIGNATURE_MISMATCH", 422);
  });

  test("bad part lists, unknown uploads, abort", async () => {
    const c = await srv.user();
    const bytes = noise(6 * 1024 * 1024, 9);
    const p = await c.files.presignUpload<Presigned>({ filename: "m.bin", mime: "application/octet-stream", size: bytes.length });
    const { url } = await c.t.call<{ url: string }>("POST", "/api/files/multipart/part", { fileId: p.fileId, uploadId: p.uploadId, partNumber: 1 });
    const put = await fetch(url, { method: "PUT", body: bytes.slice(0, 5 * 1024 * 1024) });
    expect(put.status).toBe(200);
    const etag = put.headers.get("etag")!;
    expect(etag).toBeTruthy();
    await expectApiError(() => c.t.call("POST", "/api/files/multipart/part", { fileId: p.fileId, uploadId: p.uploadId, partNumber: 3 }), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.t.call("POST", "/api/files/multipart/part", { fileId: p.fileId, uploadId: "nope", partNumber: 1 }), "INVALID_STATE", 409);
    // part 2 missing, then a wrong etag
    await expectApiError(() => c.t.call("POST", "/api/files/multipart/complete", { fileId: p.fileId, uploadId: p.uploadId, parts: [{ partNumber: 1, etag }] }).then(() => c.files.confirm(p.fileId)), "FILE_SIGNATURE_MISMATCH", 422);
  });

  test("a wrong etag is refused and abort removes the upload", async () => {
    const c = await srv.user();
    const p = await c.files.presignUpload<Presigned>({ filename: "m.bin", mime: "application/octet-stream", size: 6 * 1024 * 1024 });
    const { url } = await c.t.call<{ url: string }>("POST", "/api/files/multipart/part", { fileId: p.fileId, uploadId: p.uploadId, partNumber: 1 });
    expect((await fetch(url, { method: "PUT", body: noise(5 * 1024 * 1024) })).status).toBe(200);
    await expectApiError(() => c.t.call("POST", "/api/files/multipart/complete", { fileId: p.fileId, uploadId: p.uploadId, parts: [{ partNumber: 1, etag: '"bogus"' }] }), "VALIDATION_ERROR", 400);
    expect(await c.t.call("POST", "/api/files/multipart/abort", { fileId: p.fileId, uploadId: p.uploadId })).toEqual({ fileId: p.fileId, aborted: true });
    await expectApiError(() => c.files.get(p.fileId), "NOT_FOUND", 404);
  });
});

describe("bad input at upload and confirm", () => {
  test("a declared size over upload.max_size_mb is 413", async () => {
    const c = await srv.user();
    await expectApiError(() => c.files.presignUpload({ filename: "huge.pdf", mime: "application/pdf", size: 3000 * 1024 * 1024 }), "PAYLOAD_TOO_LARGE", 413);
  });

  test("a PUT to an expired or tampered signed URL is 401 and stores nothing", async () => {
    const c = await srv.user();
    const bytes = await makePdf(1);
    const p = await c.files.presignUpload<Presigned>({ filename: "e.pdf", mime: "application/pdf", size: bytes.length });
    const exp = Math.floor(Date.now() / 1000) - 10;
    const expired = `${srv.url}/api/files/upload/${p.fileId}?exp=${exp}&sig=${srv.services.signer.sign("put", [p.fileId], exp)}`;
    const r1 = await fetch(expired, { method: "PUT", body: bytes });
    expect(r1.status).toBe(401);
    expect((await r1.json()).error).toEqual({ code: "UNAUTHORIZED", message: "This signed URL has expired" });
    const later = p.uploadUrl.replace(/exp=(\d+)/, (_, e) => `exp=${Number(e) + 3600}`);
    expect((await fetch(later, { method: "PUT", body: bytes })).status).toBe(401);
    const other = await c.files.presignUpload<Presigned>({ filename: "o.pdf", mime: "application/pdf", size: bytes.length });
    const swapped = p.uploadUrl.replace(p.fileId, other.fileId);
    expect((await fetch(swapped, { method: "PUT", body: bytes })).status).toBe(401);
    await expectApiError(() => c.files.confirm(p.fileId), "INVALID_STATE", 409);
  });

  test("a body larger than declared is 413 and leaves no partial object", async () => {
    const c = await srv.user();
    const before = objectFiles(srv.dataDir).length;
    const p = await c.files.presignUpload<Presigned>({ filename: "s.pdf", mime: "application/pdf", size: 100 });
    const res = await fetch(p.uploadUrl, { method: "PUT", body: noise(5000) });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(objectFiles(srv.dataDir).length).toBe(before);
  });

  test("bytes whose magic does not match the declared type: 422, file and bytes removed", async () => {
    const c = await srv.user();
    const before = objectFiles(srv.dataDir).length;
    const png = await makePdf(1); // a PDF declared as PNG
    await expectApiError(() => c.files.upload(new Blob([png]), { filename: "photo.png", mime: "image/png" }), "FILE_SIGNATURE_MISMATCH", 422);
    const las = await fixture("pointcloud/Haystack_Rock.las").bytes();
    await expectApiError(() => c.files.upload(new Blob([las]), { filename: "doc.pdf", mime: "application/pdf" }), "FILE_SIGNATURE_MISMATCH", 422);
    expect((await c.files.list()).items).toEqual([]);
    expect(objectFiles(srv.dataDir).length).toBe(before);
  });

  test("DWG and DXF drawings are accepted by their content; a PDF renamed .dwg is 422 (issue 23)", async () => {
    const c = await srv.user();
    for (const name of ["r2.10-entities.dwg", "example_2018.dwg", "sample_r14.dxf"]) {
      const bytes = await fixture(`drawing/${name}`).bytes();
      const f = await c.files.upload(new Blob([bytes]), { filename: name, mime: "application/octet-stream" });
      expect(f).toMatchObject({ status: "UPLOADED", format: name.endsWith(".dwg") ? "dwg" : "dxf" });
    }
    const pdf = await makePdf(1);
    const err = await expectApiError(() => c.files.upload(new Blob([pdf]), { filename: "plan.dwg", mime: "application/octet-stream" }), "FILE_SIGNATURE_MISMATCH", 422);
    expect(err.message).toMatch(/dwg/i);
  });

  test("a checksum mismatch is 422", async () => {
    const c = await srv.user();
    const bytes = await makePdf(1);
    const err = await expectApiError(() => c.files.upload(new Blob([bytes]), { filename: "c.pdf", mime: "application/pdf", checksum: "0".repeat(64) }), "FILE_SIGNATURE_MISMATCH", 422);
    expect(err.message).toContain("checksum");
  });

  test("a size mismatch (fewer bytes than declared) is 422", async () => {
    const c = await srv.user();
    const bytes = await makePdf(1);
    const p = await c.files.presignUpload<Presigned>({ filename: "short.pdf", mime: "application/pdf", size: bytes.length + 10 });
    expect((await fetch(p.uploadUrl, { method: "PUT", body: bytes })).status).toBe(200);
    await expectApiError(() => c.files.confirm(p.fileId), "FILE_SIGNATURE_MISMATCH", 422);
  });

  test("confirming twice is 409 INVALID_STATE; confirming before any bytes is 409", async () => {
    const c = await srv.user();
    const f = await c.files.upload(await pdfBlob(), { filename: "twice.pdf", mime: "application/pdf" });
    await expectApiError(() => c.files.confirm(f.fileId), "INVALID_STATE", 409);
    const p = await c.files.presignUpload<Presigned>({ filename: "none.pdf", mime: "application/pdf", size: 10 });
    await expectApiError(() => c.files.confirm(p.fileId), "INVALID_STATE", 409);
    await expectApiError(() => c.files.download(p.fileId).then(async (r) => { if (!r.ok) throw await import("@vektor/shared/client/errors").then((m) => m.toApiError(r)); }), "INVALID_STATE", 409);
  });

  test("bad bodies and queries are 400", async () => {
    const c = await srv.user();
    const bad: Record<string, unknown>[] = [
      {},
      { filename: "", mime: "application/pdf", size: 1 },
      { filename: "a.pdf", mime: "application/pdf", size: -1 },
      { filename: "a.pdf", mime: "application/pdf", size: 1.5 },
      { filename: "a.pdf", mime: "application/pdf", size: 1, checksum: "xyz" },
      { filename: "a.pdf", mime: "application/pdf", size: 1, surprise: true },
      { filename: "a.pdf", mime: "application/pdf", size: 1, createJob: true },
    ];
    for (const body of bad) await expectApiError(() => c.files.presignUpload(body), "VALIDATION_ERROR", 400);
    for (const limit of ["0", "201", "abc", "-1"]) await expectApiError(() => c.t.call("GET", `/api/files?limit=${limit}`), "VALIDATION_ERROR", 400);
    await expectApiError(() => c.t.call("GET", "/api/files?cursor=garbage"), "VALIDATION_ERROR", 400);
  });
});

describe("listing", () => {
  test("limit and cursor page through the caller's files, newest first", async () => {
    const c = await srv.user();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await c.files.upload(new Blob([noise(100, i + 1)]), { filename: `n${i}.bin`, mime: "application/octet-stream" })).fileId);
    const p1 = await c.files.list({ limit: 2 });
    const p2 = await c.files.list({ limit: 2, cursor: p1.nextCursor! });
    const p3 = await c.files.list({ limit: 2, cursor: p2.nextCursor! });
    expect([...p1.items, ...p2.items, ...p3.items].map((f) => f.fileId)).toEqual(ids.reverse());
    expect(p3.nextCursor).toBeNull();
  });
});

describe("cross-user isolation: another user's fileId is 404, never 403", () => {
  test("detail, download, delete, confirm, presign-download, multipart", async () => {
    const owner = await srv.user();
    const other = await srv.user();
    const f = await owner.files.upload(await pdfBlob(), { filename: "mine.pdf", mime: "application/pdf" });
    await expectApiError(() => other.files.get(f.fileId), "NOT_FOUND", 404);
    await expectApiError(() => other.files.delete(f.fileId), "NOT_FOUND", 404);
    await expectApiError(() => other.files.confirm(f.fileId), "NOT_FOUND", 404);
    await expectApiError(() => other.files.presignDownload(f.fileId), "NOT_FOUND", 404);
    await expectApiError(() => other.t.call("POST", "/api/files/multipart/abort", { fileId: f.fileId, uploadId: "x" }), "NOT_FOUND", 404);
    const dl = await other.files.download(f.fileId);
    expect(dl.status).toBe(404);
    expect((await dl.json()).error.code).toBe("NOT_FOUND");
    expect((await other.files.list()).items).toEqual([]);
    expect((await owner.files.get(f.fileId)).status).toBe("UPLOADED");
  });

  test("delete removes the record and the bytes", async () => {
    const c = await srv.user();
    const before = objectFiles(srv.dataDir).length;
    const f = await c.files.upload(await pdfBlob(), { filename: "gone.pdf", mime: "application/pdf" });
    expect(objectFiles(srv.dataDir).length).toBe(before + 1);
    expect(await c.files.delete(f.fileId)).toEqual({ fileId: f.fileId, deleted: true });
    await expectApiError(() => c.files.get(f.fileId), "NOT_FOUND", 404);
    expect(objectFiles(srv.dataDir).length).toBe(before);
  });
});

describe("retention", () => {
  test("expired uploads and never-confirmed ones are deleted with their bytes; fresh ones stay", async () => {
    const a = await srv.admin();
    const c = await srv.user();
    const kept = await c.files.upload(await pdfBlob(), { filename: "kept.pdf", mime: "application/pdf" });
    const later = new Date(Date.now() + 25 * 3_600_000).toISOString();
    const dryRun = await a.admin.runRetention(new Date(Date.now() + 3_600_000).toISOString());
    expect(dryRun.deletedFiles).toBe(0);
    expect((await c.files.get(kept.fileId)).expiresAt).toBe(new Date(new Date((await c.files.get(kept.fileId)).createdAt).getTime() + 24 * 3_600_000).toISOString());
    const res = await a.admin.runRetention(later);
    expect(res.deletedFiles).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(res.deletedJobs)).toBe(true);
    await expectApiError(() => c.files.get(kept.fileId), "NOT_FOUND", 404);
    expect(objectFiles(srv.dataDir).filter((p) => !p.includes(".multipart"))).toEqual([]);
    await expectApiError(() => a.t.call("POST", "/api/admin/system/retention", { now: "yesterday" }), "VALIDATION_ERROR", 400);
  });

  test("a crash's leftovers in the local store go once untouched for a day; a temp file written since stays", async () => {
    const a = await srv.admin();
    const tmp = join(srv.dataDir, "objects", ".tmp");
    mkdirSync(tmp, { recursive: true });
    const [left, live] = [join(tmp, "left-by-a-crash"), join(tmp, "being-written")];
    writeFileSync(left, "x");
    writeFileSync(live, "x");
    const later = Date.now() + 25 * 3_600_000;
    // Touched an hour before the sweep's "now": a write still going on.
    utimesSync(live, new Date(later - 3_600_000), new Date(later - 3_600_000));
    expect((await a.admin.runRetention(new Date(Date.now() + 3_600_000).toISOString())).leftoversRemoved).toBe(0);
    expect(existsSync(left)).toBe(true);
    expect((await a.admin.runRetention(new Date(later).toISOString())).leftoversRemoved).toBeGreaterThanOrEqual(1);
    expect(existsSync(left)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});
