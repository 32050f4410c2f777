/**
 * S3Store against a real S3-protocol server (s3rver, in this process) on 127.0.0.1: the SDK's
 * requests, the presigned URLs and the multipart flow all go over HTTP, nothing is mocked.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { collect, describeStoreContract, generatedStream, randomBytes, sha256Hex, storageError, streamOf } from "./contract.testkit";
import { S3Store, attachmentDisposition, type S3Config } from "./s3";

const BUCKET = "vektor-test";
let server: S3rver;
let dir: string;
let config: S3Config;

/** Started at import, once for both suites below; their beforeAll hooks wait for it. */
const ready = (async () => {
  dir = mkdtempSync(join(tmpdir(), "vektor-s3rver-"));
  server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  // s3rver's built-in account: it checks signatures against this key pair.
  config = { endpoint: `http://127.0.0.1:${port}`, bucket: BUCKET, accessKeyId: "S3RVER", secretAccessKey: "S3RVER", region: "us-east-1" };
})();

beforeAll(() => ready);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const MiB = 1024 * 1024;

// s3rver 3.7 neither compares part ETags at completion nor implements AbortMultipartUpload;
// real S3 does both, and S3Store maps those answers to bad-parts / success.
describeStoreContract(
  "s3 (s3rver)",
  async () => {
    await ready;
    return new S3Store(config, { putPartSize: 5 * MiB });
  },
  { verifiesParts: false, aborts: false },
);

describe("S3Store", () => {
  let store: S3Store;
  beforeAll(async () => {
    await ready;
    store = new S3Store(config, { putPartSize: 5 * MiB });
  });

  test("a presigned PUT stores the body; a given content type is among the signed headers", async () => {
    const url = await store.presignPut("u/1/direct", 300, "text/plain");
    expect(url).toStartWith(`${config.endpoint}/${BUCKET}/u/1/direct?`);
    // s3rver 3.7 does not verify SigV4 signatures, so what is signed is checked on the URL.
    expect(new URL(url!).searchParams.get("X-Amz-SignedHeaders")).toBe("content-type;host");
    const res = await fetch(url!, { method: "PUT", body: "hello direct", headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(await collect(await store.get("u/1/direct")))).toBe("hello direct");
    expect(new URL((await store.presignPut("u/1/direct", 300))!).searchParams.get("X-Amz-SignedHeaders")).toBe("host");
  });

  test("presigned URLs carry no SDK checksum (S3 would reject it for any non-empty body)", async () => {
    const put = await store.presignPut("u/1/x", 60);
    const part = await store.presignPart("u/1/x", "abc", 1, 60);
    for (const url of [put!, part!]) expect(url).not.toContain("x-amz-checksum");
  });

  test("a presigned GET downloads, ranges work, and a file name becomes Content-Disposition", async () => {
    const bytes = randomBytes(2048);
    await store.put("u/1/dl", streamOf(bytes));
    const plain = await fetch((await store.presignGet("u/1/dl", 300))!);
    expect(new Uint8Array(await plain.arrayBuffer())).toEqual(bytes);
    const named = await fetch((await store.presignGet("u/1/dl", 300, 'Plan "A" – Ü.dxf'))!, { headers: { range: "bytes=0-9" } });
    expect(named.status).toBe(206);
    expect(new Uint8Array(await named.arrayBuffer())).toEqual(bytes.slice(0, 10));
    expect(named.headers.get("content-disposition")).toBe(attachmentDisposition('Plan "A" – Ü.dxf'));
    expect(attachmentDisposition('Plan "A" – Ü.dxf')).toBe(`attachment; filename="Plan _A_ _ _.dxf"; filename*=UTF-8''Plan%20%22A%22%20%E2%80%93%20%C3%9C.dxf`);
  });

  test("a presigned GET of a missing key answers 404", async () => {
    const res = await fetch((await store.presignGet("u/1/none", 60))!);
    expect(res.status).toBe(404);
  });

  test("a body larger than one part goes up as a multipart upload", async () => {
    const body = generatedStream(12 * MiB + 5);
    const res = await store.put("u/2/big", body.stream);
    expect(res).toEqual({ size: 12 * MiB + 5, sha256: body.sha256() });
    expect(await store.sha256("u/2/big")).toBe(res.sha256);
    expect(await collect(await store.get("u/2/big", { start: 5 * MiB - 2, end: 5 * MiB + 1 }))).toHaveLength(4);
  });

  test("a multipart put that passes maxBytes is stopped and leaves no object", async () => {
    const err = await storageError(store.put("u/2/over", generatedStream(12 * MiB).stream, { maxBytes: 11 * MiB }));
    expect(err.reason).toBe("too-large");
    expect(await store.head("u/2/over")).toBeNull();
  });

  test("a presigned multipart upload with real ETags completes", async () => {
    const bytes = randomBytes(5 * MiB + 100);
    const id = await store.createMultipart("u/3/mp", "application/octet-stream");
    const etags: string[] = [];
    for (const [n, part] of [[1, bytes.subarray(0, 5 * MiB)], [2, bytes.subarray(5 * MiB)]] as const) {
      const res = await fetch((await store.presignPart("u/3/mp", id, n, 300))!, { method: "PUT", body: part });
      expect(res.status).toBe(200);
      etags.push(res.headers.get("etag")!);
    }
    expect(etags[0]).toBe(`"${new Bun.CryptoHasher("md5").update(bytes.subarray(0, 5 * MiB)).digest("hex")}"`);
    await store.completeMultipart("u/3/mp", id, etags.map((etag, i) => ({ partNumber: i + 1, etag })));
    expect(sha256Hex(await collect(await store.get("u/3/mp")))).toBe(sha256Hex(bytes));
  });

  test("ping checks the bucket", async () => {
    await store.ping();
    await expect(new S3Store({ ...config, bucket: "no-such-bucket" }).ping()).rejects.toThrow();
  });
});
