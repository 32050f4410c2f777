/**
 * The behaviour every ObjectStore must share, run once per backend (local.test.ts, s3.test.ts),
 * plus the stream helpers those tests use. Not a test file itself: it only defines suites.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { StorageError, StorageNotFound, type ObjectStore, type PartReceipt } from "./types";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Streams `bytes` in `chunkSize` slices, optionally yielding to the event loop between them. */
export function streamOf(bytes: Uint8Array, chunkSize = 64 * 1024, yieldEvery = 0): ReadableStream<Uint8Array> {
  let at = 0;
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (at >= bytes.length) return controller.close();
        if (yieldEvery && ++sent % yieldEvery === 0) await Bun.sleep(1);
        controller.enqueue(bytes.slice(at, at + chunkSize));
        at += chunkSize;
      },
    },
    { highWaterMark: 0 },
  );
}

/** A body of `total` bytes made on the fly (never held whole), with the sha256 of what was sent. */
export function generatedStream(total: number, chunkSize = 64 * 1024): { stream: ReadableStream<Uint8Array>; sha256: () => string } {
  const base = crypto.getRandomValues(new Uint8Array(chunkSize));
  const hasher = new Bun.CryptoHasher("sha256");
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) return controller.close();
        const chunk = base.slice(0, Math.min(chunkSize, total - sent));
        if (chunk.length >= 8) new DataView(chunk.buffer).setFloat64(0, sent); // every chunk differs
        hasher.update(chunk);
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, sha256: () => hasher.digest("hex") };
}

/** A body that sends `before` bytes and then fails, like a dropped connection. */
export function failingStream(before: number): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(new Error("connection reset"));
      sent = true;
      controller.enqueue(new Uint8Array(before).fill(7));
    },
  });
}

export function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  for (let at = 0; at < n; at += 65536) crypto.getRandomValues(out.subarray(at, Math.min(n, at + 65536)));
  return out;
}

export async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export function sha256Hex(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

/** Uploads one part the way a client would: to the presigned URL when there is one, else through putPart. */
export async function clientPart(store: ObjectStore, key: string, uploadId: string, n: number, partSize: number, bytes: Uint8Array<ArrayBuffer>): Promise<PartReceipt> {
  const url = await store.presignPart(key, uploadId, n, 300);
  if (!url) return store.putPart(key, uploadId, n, partSize, streamOf(bytes, 32 * 1024, 4));
  const res = await fetch(url, { method: "PUT", body: bytes });
  if (!res.ok) throw new Error(`part ${n}: HTTP ${res.status} ${await res.text()}`);
  const etag = res.headers.get("etag");
  if (!etag) throw new Error(`part ${n}: no ETag header`);
  return { partNumber: n, etag };
}

/** Resolves to the StorageError a promise rejects with (fails the test otherwise). */
export async function storageError(promise: Promise<unknown>): Promise<StorageError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StorageError);
  return err as StorageError;
}

export interface ContractOptions {
  /** The server compares part ETags and finds unlisted parts at completion (s3rver 3.7 does not). */
  verifiesParts: boolean;
  /** The server implements AbortMultipartUpload (s3rver 3.7 answers 405). */
  aborts: boolean;
}

const MiB = 1024 * 1024;
/** 5 MiB: S3's smallest allowed non-final part. */
const PART = 5 * MiB;

export function describeStoreContract(name: string, setup: () => Promise<ObjectStore>, opts: ContractOptions): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let store: ObjectStore;
    let seq = 0;
    const freshKey = () => `u/contract/${Date.now().toString(36)}-${++seq}`;
    beforeAll(async () => {
      store = await setup();
    });

    test("put streams a body and reports its size and sha256; get, head and sha256 agree", async () => {
      const key = freshKey();
      const bytes = randomBytes(300_001);
      const res = await store.put(key, streamOf(bytes), { contentType: "application/octet-stream" });
      expect(res).toEqual({ size: bytes.length, sha256: sha256Hex(bytes) });
      expect(await collect(await store.get(key))).toEqual(bytes);
      expect(await store.head(key)).toEqual({ size: bytes.length });
      expect(await store.sha256(key)).toBe(res.sha256);
    });

    test("putBytes, where a store has it, stores what put would: size, sha256, bytes, in a folder no object made yet, replacing an object", async () => {
      if (!store.putBytes) return;
      // small and large (LocalStore writes up to 64 KiB at once, larger ones on the thread pool), each into a new folder first
      for (const first of [randomBytes(5), randomBytes(70_001)]) {
        const key = `u/contract-bytes-${Date.now().toString(36)}-${++seq}/${seq}`;
        for (const bytes of [first, new Uint8Array(0), randomBytes(70_003), randomBytes(7)]) {
          expect(await store.putBytes(key, bytes)).toEqual({ size: bytes.length, sha256: sha256Hex(bytes) });
          expect(await collect(await store.get(key))).toEqual(bytes);
          expect(await store.head(key)).toEqual({ size: bytes.length });
        }
      }
    });

    test("putFile and copyToFile, where a store has them: a file taken whole as an object (gone from its place), and an object copied out to a file", async () => {
      if (!store.putFile || !store.copyToFile) return;
      const dir = mkdtempSync(join(tmpdir(), "vektor-contract-"));
      try {
        const bytes = randomBytes(3 * 65_536 + 7);
        const source = join(dir, "out.bin");
        writeFileSync(source, bytes);
        const key = freshKey();
        expect(await store.putFile(key, source)).toEqual({ size: bytes.length, sha256: sha256Hex(bytes) });
        expect(existsSync(source)).toBe(false);
        expect(await collect(await store.get(key))).toEqual(bytes);
        const copy = join(dir, "copy.bin");
        await store.copyToFile(key, copy);
        expect(new Uint8Array(readFileSync(copy))).toEqual(bytes);
        expect(await store.copyToFile(`${key}-missing`, join(dir, "none")).catch((err) => err)).toBeInstanceOf(StorageNotFound);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test("an empty body is a valid object", async () => {
      const key = freshKey();
      expect(await store.put(key, streamOf(new Uint8Array(0)))).toEqual({ size: 0, sha256: sha256Hex(new Uint8Array(0)) });
      expect(await store.head(key)).toEqual({ size: 0 });
      expect((await collect(await store.get(key))).length).toBe(0);
    });

    test("put replaces an existing object", async () => {
      const key = freshKey();
      await store.put(key, streamOf(randomBytes(5000)));
      const second = randomBytes(1234);
      await store.put(key, streamOf(second));
      expect(await collect(await store.get(key))).toEqual(second);
    });

    test("get takes an inclusive range, clamps its end and refuses a start past the end", async () => {
      const key = freshKey();
      const bytes = randomBytes(10_000);
      await store.put(key, streamOf(bytes));
      expect(await collect(await store.get(key, { start: 100, end: 199 }))).toEqual(bytes.slice(100, 200));
      expect(await collect(await store.get(key, { start: 9990, end: 50_000 }))).toEqual(bytes.slice(9990));
      await storageError(store.get(key, { start: 10_000, end: 10_005 }));
      await storageError(store.get(key, { start: 5, end: 4 }));
    });

    test("readBytes reads a window, short at the end and empty past it", async () => {
      const key = freshKey();
      const bytes = randomBytes(4096);
      await store.put(key, streamOf(bytes));
      expect(await store.readBytes(key, 0, 16)).toEqual(bytes.slice(0, 16));
      expect(await store.readBytes(key, 4000, 500)).toEqual(bytes.slice(4000));
      expect((await store.readBytes(key, 5000, 10)).length).toBe(0);
      expect((await store.readBytes(key, 0, 0)).length).toBe(0);
    });

    test("a missing object: get, readBytes and sha256 throw StorageNotFound, head is null, delete is fine", async () => {
      const key = freshKey();
      await expect(store.get(key)).rejects.toBeInstanceOf(StorageNotFound);
      await expect(store.get(key, { start: 0, end: 1 })).rejects.toBeInstanceOf(StorageNotFound);
      await expect(store.readBytes(key, 0, 8)).rejects.toBeInstanceOf(StorageNotFound);
      await expect(store.sha256(key)).rejects.toBeInstanceOf(StorageNotFound);
      expect(await store.head(key)).toBeNull();
      await store.delete(key);
    });

    test("delete removes an object", async () => {
      const key = freshKey();
      await store.put(key, streamOf(randomBytes(10)));
      await store.delete(key);
      expect(await store.head(key)).toBeNull();
    });

    test("maxBytes: a larger body is refused as too-large and the previous object stays", async () => {
      const key = freshKey();
      const original = randomBytes(100);
      await store.put(key, streamOf(original));
      const err = await storageError(store.put(key, streamOf(randomBytes(5000), 1000), { maxBytes: 4999 }));
      expect(err.reason).toBe("too-large");
      expect(await collect(await store.get(key))).toEqual(original);
      const fresh = freshKey();
      await storageError(store.put(fresh, streamOf(randomBytes(5000), 1000), { maxBytes: 4999 }));
      expect(await store.head(fresh)).toBeNull();
      expect((await store.put(fresh, streamOf(randomBytes(5000)), { maxBytes: 5000 })).size).toBe(5000);
    });

    test("a body that fails midway rejects the put and stores nothing", async () => {
      const key = freshKey();
      await expect(store.put(key, failingStream(1000))).rejects.toThrow("connection reset");
      expect(await store.head(key)).toBeNull();
    });

    test("keys that could escape or collide are refused before any I/O", async () => {
      const bad = ["../x", "u/../../etc/passwd", "/etc/passwd", "u\\x", "u//x", "u/x/", "", "u/./x", ".multipart/x", "u/\u0000x"];
      for (const key of bad) {
        await storageError(store.put(key, streamOf(randomBytes(4))));
        await storageError(store.get(key));
        await storageError(store.head(key));
        await storageError(store.delete(key));
        await storageError(store.createMultipart(key));
      }
    });

    test("multipart: parts sent out of order and in parallel complete to the exact bytes", async () => {
      const key = freshKey();
      const bytes = randomBytes(2 * PART + MiB + 123);
      const id = await store.createMultipart(key, "application/octet-stream");
      const slice = (n: number) => bytes.subarray((n - 1) * PART, n * PART);
      const receipts = await Promise.all([3, 1, 2].map((n) => clientPart(store, key, id, n, PART, slice(n))));
      receipts.sort((a, b) => a.partNumber - b.partNumber);
      await store.completeMultipart(key, id, receipts);
      expect(await store.head(key)).toEqual({ size: bytes.length });
      expect(await store.sha256(key)).toBe(sha256Hex(bytes));
    });

    test("multipart through the server relay (putPart) completes too", async () => {
      const key = freshKey();
      const bytes = randomBytes(PART + 10);
      const id = await store.createMultipart(key);
      const first = await store.putPart(key, id, 1, PART, streamOf(bytes.subarray(0, PART)));
      const second = await store.putPart(key, id, 2, PART, streamOf(bytes.subarray(PART)));
      await store.completeMultipart(key, id, [first, second]);
      expect(await collect(await store.get(key))).toEqual(bytes);
    });

    test("multipart: putPart refuses a part longer than the part size", async () => {
      const key = freshKey();
      const id = await store.createMultipart(key);
      const err = await storageError(store.putPart(key, id, 1, 1000, streamOf(randomBytes(1001), 100)));
      expect(err.reason).toBe("size-mismatch");
    });

    test("multipart: a list with a gap or out of order is refused as bad-parts", async () => {
      const key = freshKey();
      const id = await store.createMultipart(key);
      const one = await clientPart(store, key, id, 1, PART, randomBytes(PART));
      const three = await clientPart(store, key, id, 3, PART, randomBytes(10));
      expect((await storageError(store.completeMultipart(key, id, [one, three]))).reason).toBe("bad-parts");
      expect((await storageError(store.completeMultipart(key, id, []))).reason).toBe("bad-parts");
      const two = await clientPart(store, key, id, 2, PART, randomBytes(PART));
      expect((await storageError(store.completeMultipart(key, id, [one, three, two]))).reason).toBe("bad-parts");
      expect(await store.head(key)).toBeNull();
    });

    test.skipIf(!opts.verifiesParts)("multipart: a wrong etag or a part never sent is refused as bad-parts", async () => {
      const key = freshKey();
      const id = await store.createMultipart(key);
      const one = await clientPart(store, key, id, 1, PART, randomBytes(PART));
      const two = await clientPart(store, key, id, 2, PART, randomBytes(10));
      const wrong = { partNumber: 2, etag: two.etag.replace(/[0-9a-f]/, (c) => (c === "0" ? "1" : "0")) };
      expect((await storageError(store.completeMultipart(key, id, [one, wrong]))).reason).toBe("bad-parts");
      expect((await storageError(store.completeMultipart(key, id, [one, two, { partNumber: 3, etag: two.etag }]))).reason).toBe("bad-parts");
      await store.completeMultipart(key, id, [one, two]);
      expect(await store.head(key)).toEqual({ size: PART + 10 });
    });

    test.skipIf(!opts.aborts)("multipart: abort discards the upload, and aborting twice is fine", async () => {
      const key = freshKey();
      const id = await store.createMultipart(key);
      const one = await clientPart(store, key, id, 1, PART, randomBytes(1000));
      await store.abortMultipart(key, id);
      await store.abortMultipart(key, id);
      expect((await storageError(store.completeMultipart(key, id, [one]))).reason).toBe("bad-parts");
      expect(await store.head(key)).toBeNull();
    });

    test("ping succeeds on a working store", async () => {
      await store.ping();
    });
  });
}
