import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clientPart, collect, describeStoreContract, generatedStream, randomBytes, sha256Hex, storageError, streamOf } from "./contract.testkit";
import { LocalStore } from "./local";
import type { PartReceipt } from "./types";

const dirs: string[] = [];
function tempRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), "vektor-local-store-"));
  dirs.push(dir);
  return join(dir, "objects");
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describeStoreContract("local", async () => new LocalStore(tempRoot()), { verifiesParts: true, aborts: true });

describe("LocalStore", () => {
  const root = tempRoot();
  const store = new LocalStore(root);
  const uploadDir = (id: string) => join(root, ".multipart", id);

  test("keys stay inside the root", async () => {
    await storageError(store.put("../escaped", streamOf(randomBytes(4))));
    await storageError(store.put("u/../../escaped", streamOf(randomBytes(4))));
    expect(existsSync(join(root, "..", "escaped"))).toBe(false);
    await store.put("u/1/a", streamOf(randomBytes(4)));
    expect(statSync(join(root, "u/1/a")).size).toBe(4);
  });

  test("readSync: an object of exactly the size asked, in a buffer of its own; null when missing, of another size or outside the root", async () => {
    const bytes = randomBytes(3000);
    await store.put("u/1/small", streamOf(bytes));
    const read = store.readSync("u/1/small", 3000);
    expect(read).toEqual(bytes);
    expect(read!.buffer.byteLength).toBe(3000);
    expect(store.readSync("u/1/small", 2999)).toBeNull();
    expect(store.readSync("u/1/small", 3001)).toBeNull();
    expect(store.readSync("u/1/none", 10)).toBeNull();
    expect(store.readSync("../escaped", 4)).toBeNull();
  });

  test("placeStaged: a file in the staging folder becomes the object (moved, its folder made)", async () => {
    const bytes = randomBytes(500);
    mkdirSync(store.stagingDir, { recursive: true });
    const staged = join(store.stagingDir, "out-test");
    writeFileSync(staged, bytes);
    store.placeStaged("u/9/placed", staged);
    expect(existsSync(staged)).toBe(false);
    expect(await collect(await store.get("u/9/placed"))).toEqual(bytes);
    expect(() => store.placeStaged("../escaped", staged)).toThrow();
  });

  test("presign* return null: the server signs its own routes", async () => {
    expect(await store.presignPut("u/1/a", 60)).toBeNull();
    expect(await store.presignGet("u/1/a", 60, "a.txt")).toBeNull();
    expect(await store.presignPart("u/1/a", "x", 1, 60)).toBeNull();
  });

  test("a body over maxBytes leaves no temp file and no object", async () => {
    const err = await storageError(store.put("u/1/big", streamOf(randomBytes(3 << 20)), { maxBytes: 2 << 20 }));
    expect(err.reason).toBe("too-large");
    expect(existsSync(join(root, "u/1/big"))).toBe(false);
    expect(readdirSync(join(root, ".tmp"))).toEqual([]);
  });

  test("parts written in parallel, out of order, in small interleaved chunks give the exact bytes without a copy", async () => {
    const partSize = 256 * 1024;
    const bytes = randomBytes(7 * partSize + 999);
    const id = await store.createMultipart("u/1/mp");
    const dataInode = statSync(join(uploadDir(id), "data")).ino;
    const order = [8, 3, 5, 1, 7, 2, 6, 4];
    const receipts = await Promise.all(
      order.map((n) => store.putPart("u/1/mp", id, n, partSize, streamOf(bytes.subarray((n - 1) * partSize, n * partSize), 4096, 2))),
    );
    receipts.sort((a, b) => a.partNumber - b.partNumber);
    await store.completeMultipart("u/1/mp", id, receipts);
    expect(sha256Hex(await collect(await store.get("u/1/mp")))).toBe(sha256Hex(bytes));
    expect(statSync(join(root, "u/1/mp")).ino).toBe(dataInode);
    expect(existsSync(uploadDir(id))).toBe(false);
  });

  test("completion refuses a wrong etag, a missing part, a short middle part and mixed part sizes", async () => {
    const key = "u/2/mp";
    const id = await store.createMultipart(key);
    const one = await store.putPart(key, id, 1, 1000, streamOf(randomBytes(1000)));
    const two = await store.putPart(key, id, 2, 1000, streamOf(randomBytes(999)));
    const three = await store.putPart(key, id, 3, 1000, streamOf(randomBytes(10)));
    expect((await storageError(store.completeMultipart(key, id, [one, { partNumber: 2, etag: one.etag }, three]))).reason).toBe("bad-parts");
    expect((await storageError(store.completeMultipart(key, id, [one, two, three, { partNumber: 4, etag: three.etag }]))).reason).toBe("bad-parts");
    expect((await storageError(store.completeMultipart(key, id, [one, two, three]))).reason).toBe("size-mismatch");
    const twoAgain = await store.putPart(key, id, 2, 2000, streamOf(randomBytes(2000)));
    expect((await storageError(store.completeMultipart(key, id, [one, twoAgain]))).reason).toBe("size-mismatch");
    // A failed completion leaves the upload usable: fix part 2 and complete.
    const fixed = randomBytes(1000);
    const twoFixed = await store.putPart(key, id, 2, 1000, streamOf(fixed));
    await store.completeMultipart(key, id, [one, twoFixed, three]);
    expect(await store.readBytes(key, 1000, 1000)).toEqual(fixed);
    expect(await store.head(key)).toEqual({ size: 2010 });
  });

  test("an oversized part is refused and counts as missing until re-sent", async () => {
    const key = "u/3/mp";
    const id = await store.createMultipart(key);
    const one = await store.putPart(key, id, 1, 1000, streamOf(randomBytes(10)));
    expect((await storageError(store.putPart(key, id, 1, 1000, streamOf(randomBytes(1500), 100)))).reason).toBe("size-mismatch");
    expect((await storageError(store.completeMultipart(key, id, [one]))).reason).toBe("bad-parts");
    const again = await store.putPart(key, id, 1, 1000, streamOf(randomBytes(10)));
    await store.completeMultipart(key, id, [again]);
    // The refused attempt wrote up to 1000 bytes; completion truncates to what was listed.
    expect(await store.head(key)).toEqual({ size: 10 });
  });

  test("a part request whose client left before its turn does not undo a later upload of that part", async () => {
    const key = "u/3b/mp";
    const id = await store.createMultipart(key);
    const resumed = await store.putPart(key, id, 1, 1000, streamOf(randomBytes(10)));
    // The abandoned first attempt, reached late by a busy server.
    const gone = new AbortController();
    gone.abort();
    const stale = new Request("http://127.0.0.1/part", { method: "PUT", body: randomBytes(1000), signal: gone.signal });
    expect((await storageError(store.putPart(key, id, 1, 1000, stale))).reason).toBe("bad-parts");
    await store.completeMultipart(key, id, [resumed]);
    expect(await store.head(key)).toEqual({ size: 10 });
  });

  test("abort removes the upload's folder; later parts are refused", async () => {
    const key = "u/4/mp";
    const id = await store.createMultipart(key);
    await store.putPart(key, id, 1, 1000, streamOf(randomBytes(1000)));
    await store.abortMultipart(key, id);
    expect(existsSync(uploadDir(id))).toBe(false);
    expect((await storageError(store.putPart(key, id, 2, 1000, streamOf(randomBytes(10))))).reason).toBe("bad-parts");
  });

  test("upload ids are checked: malformed, unknown or for another key", async () => {
    const id = await store.createMultipart("u/5/mp");
    for (const [key, uploadId] of [["u/5/mp", "../../u/1/a"], ["u/5/mp", "0".repeat(32)], ["u/5/other", id]]) {
      expect((await storageError(store.putPart(key, uploadId, 1, 10, streamOf(randomBytes(10))))).reason).toBe("bad-parts");
    }
  });

  test("completion waits for no one: it is refused while a part is still being written", async () => {
    const key = "u/6/mp";
    const id = await store.createMultipart(key);
    const one = await store.putPart(key, id, 1, 1000, streamOf(randomBytes(1000)));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await gate;
        controller.enqueue(randomBytes(10));
        controller.close();
      },
    });
    const pending = store.putPart(key, id, 2, 1000, slow);
    await Bun.sleep(5);
    expect((await storageError(store.completeMultipart(key, id, [one]))).reason).toBe("bad-parts");
    release();
    const two = await pending;
    await store.completeMultipart(key, id, [one, two]);
    expect(await store.head(key)).toEqual({ size: 1010 });
  });

  test("two uploads of the same part run one after the other; the later one wins", async () => {
    const key = "u/7/mp";
    const id = await store.createMultipart(key);
    const a = randomBytes(50_000);
    const b = randomBytes(50_000);
    const [first, second] = await Promise.all([
      store.putPart(key, id, 1, 50_000, streamOf(a, 1000, 1)),
      store.putPart(key, id, 1, 50_000, streamOf(b, 1000, 1)),
    ]);
    expect(first.etag).not.toBe(second.etag);
    expect((await storageError(store.completeMultipart(key, id, [first]))).reason).toBe("bad-parts");
    await store.completeMultipart(key, id, [second]);
    expect(await collect(await store.get(key))).toEqual(b);
  });

  test("ping fails when the root cannot be written", async () => {
    const notADir = join(tempRoot(), "..", "not-a-dir");
    writeFileSync(notADir, "x");
    await expect(new LocalStore(join(notADir, "objects")).ping()).rejects.toThrow();
  });

  test("sweep removes stale temp files and uploads, and keeps fresh ones", async () => {
    const sweepRoot = tempRoot();
    const sweeper = new LocalStore(sweepRoot);
    const stale = await sweeper.createMultipart("u/8/old");
    const fresh = await sweeper.createMultipart("u/8/new");
    await sweeper.ping();
    writeFileSync(join(sweepRoot, ".tmp", "leftover"), "x");
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(join(sweepRoot, ".multipart", stale), old, old);
    utimesSync(join(sweepRoot, ".tmp", "leftover"), old, old);
    expect(await sweeper.sweep(3600_000)).toBe(2);
    expect(existsSync(join(sweepRoot, ".multipart", stale))).toBe(false);
    expect(existsSync(join(sweepRoot, ".multipart", fresh))).toBe(true);
  });

  test("a 200 MB put and get stream with flat memory (measured in a fresh process)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vektor-rss-"));
    try {
      const probe = Bun.spawnSync([process.execPath, join(import.meta.dir, "rss-probe.fixture.ts"), dir]);
      const result = JSON.parse(probe.stdout.toString());
      console.log(`200 MB put+get: RSS grew ${result.growthMB.toFixed(1)} MB`);
      expect(result).toMatchObject({ size: 200 * 1024 * 1024, read: 200 * 1024 * 1024, sameHash: true });
      // Holding the object would add >= 200 MB.
      expect(result.growthMB).toBeLessThan(64);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("LocalStore.putRequest (native write, hashed by a follower thread)", () => {
  const root = tempRoot();
  const store = new LocalStore(root);
  const leftovers = () => (existsSync(join(root, ".tmp")) ? readdirSync(join(root, ".tmp")) : []);

  /** A loopback server whose every PUT goes through putRequest; answers the result or the error. */
  function serve(maxBytes?: number, prefix = "r") {
    let n = 0;
    return Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        try {
          return Response.json(await store.putRequest(`u/9/${prefix}${n++}`, req, { maxBytes }));
        } catch (err) {
          return Response.json({ error: (err as Error).message }, { status: 400 });
        }
      },
    });
  }

  test("a slow client's body: exact bytes and the right sha256, whether the follower waits or not", async () => {
    const server = serve();
    try {
      for (const [size, yieldEvery] of [[5 << 20, 3], [300_000, 0], [1, 0]] as const) {
        const bytes = randomBytes(size);
        const res = await fetch(server.url, { method: "PUT", body: streamOf(bytes, 16 * 1024, yieldEvery), headers: { "content-length": String(size) }, duplex: "half" } as RequestInit);
        const got = (await res.json()) as { size: number; sha256: string };
        expect(got).toEqual({ size, sha256: sha256Hex(bytes) });
      }
      expect(leftovers()).toEqual([]);
    } finally {
      server.stop(true);
    }
  });

  test("an empty body, and a chunked body without Content-Length, are stored too", async () => {
    expect(await store.putRequest("u/9/empty", new Request("http://127.0.0.1/", { method: "PUT", headers: { "content-length": "0" } }))).toEqual({ size: 0, sha256: sha256Hex(new Uint8Array(0)) });
    const bytes = randomBytes(100_000);
    const chunked = new Request("http://127.0.0.1/", { method: "PUT", body: streamOf(bytes), duplex: "half" } as RequestInit);
    expect(await store.putRequest("u/9/chunked", chunked)).toEqual({ size: bytes.length, sha256: sha256Hex(bytes) });
    expect(await collect(await store.get("u/9/chunked"))).toEqual(bytes);
  });

  test("a declared length over maxBytes is refused before a byte is written", async () => {
    const server = serve(1000);
    try {
      const res = await fetch(server.url, { method: "PUT", body: randomBytes(5000) });
      expect((await res.json()).error).toMatch(/larger than 1000 bytes/);
      expect(leftovers()).toEqual([]);
    } finally {
      server.stop(true);
    }
  });

  test("a client that stops half-way leaves no temp file and no object", async () => {
    const server = serve(undefined, "half");
    try {
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          controller.enqueue(randomBytes(64 * 1024));
          await Bun.sleep(5);
          controller.error(new Error("client gave up"));
        },
      });
      await fetch(server.url, { method: "PUT", body, headers: { "content-length": String(1 << 20) }, duplex: "half" } as RequestInit).catch(() => null);
      // The server notices the broken body on its own time: a deadline, not a fixed number of polls.
      for (const deadline = Date.now() + 15_000; leftovers().length && Date.now() < deadline; ) await Bun.sleep(20);
      expect(leftovers()).toEqual([]);
      expect(await store.head("u/9/half0")).toBeNull();
    } finally {
      server.stop(true);
    }
  });

  test("getBlob gives the object or a range as a file-backed Blob", async () => {
    const bytes = randomBytes(10_000);
    await store.put("u/9/blob", streamOf(bytes));
    expect(new Uint8Array(await (await store.getBlob("u/9/blob")).arrayBuffer())).toEqual(bytes);
    expect(new Uint8Array(await (await store.getBlob("u/9/blob", { start: 100, end: 199 })).arrayBuffer())).toEqual(bytes.subarray(100, 200));
    await expect(store.getBlob("u/9/none")).rejects.toThrow(/not found/);
  });
});

describe("LocalStore multipart from part requests (native writes, sha256 taken in part order)", () => {
  const root = tempRoot();
  const store = new LocalStore(root);

  /** A loopback server: PUT /<key>?upload=&part=&size= goes through putPart with the Request. */
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const q = (name: string) => url.searchParams.get(name) ?? "";
      try {
        return Response.json(await store.putPart(url.pathname.slice(1), q("upload"), Number(q("part")), Number(q("size")), req));
      } catch (err) {
        return Response.json({ error: (err as Error).message, reason: (err as { reason?: string }).reason }, { status: 400 });
      }
    },
  });
  afterAll(() => server.stop(true));

  /** Sends one part over loopback, as a stream (with its Content-Length) when `slow`. */
  async function send(key: string, uploadId: string, n: number, partSize: number, bytes: Uint8Array<ArrayBuffer>, slow = false) {
    const url = `${server.url}${key}?upload=${uploadId}&part=${n}&size=${partSize}`;
    const body = slow ? streamOf(bytes, 16 * 1024, 2) : bytes;
    const res = await fetch(url, { method: "PUT", body, headers: { "content-length": String(bytes.length) }, duplex: "half" } as RequestInit);
    return (await res.json()) as PartReceipt & { error?: string; reason?: string };
  }

  const partSize = 256 * 1024;
  const partOf = (bytes: Uint8Array<ArrayBuffer>, n: number) => bytes.subarray((n - 1) * partSize, n * partSize);

  test("parts sent out of order, three at a time: exact bytes, and completion answers their sha256", async () => {
    const key = "u/20/mp";
    const bytes = randomBytes(8 * partSize + 12_345);
    const id = await store.createMultipart(key);
    const order = [9, 4, 2, 7, 1, 3, 8, 6, 5];
    const receipts: PartReceipt[] = [];
    for (let i = 0; i < order.length; i += 3) {
      const batch = order.slice(i, i + 3);
      receipts.push(...(await Promise.all(batch.map((n) => send(key, id, n, partSize, partOf(bytes, n), n % 2 === 0)))));
    }
    receipts.sort((a, b) => a.partNumber - b.partNumber);
    expect(receipts.map((r) => r.etag)).toEqual(receipts.map(() => expect.stringMatching(/^[0-9a-f]{32}$/)));
    expect(await store.completeMultipart(key, id, receipts)).toEqual({ sha256: sha256Hex(bytes) });
    expect(await collect(await store.get(key))).toEqual(bytes);
  });

  test("a part sent again after the hasher passed it: the bytes are right, the digest is left to confirm", async () => {
    const key = "u/21/mp";
    const bytes = randomBytes(3 * partSize);
    const id = await store.createMultipart(key);
    const one = await send(key, id, 1, partSize, partOf(bytes, 1));
    await send(key, id, 2, partSize, randomBytes(partSize));
    const three = await send(key, id, 3, partSize, partOf(bytes, 3));
    const two = await send(key, id, 2, partSize, partOf(bytes, 2));
    expect(await store.completeMultipart(key, id, [one, two, three])).toEqual({ sha256: null });
    expect(sha256Hex(await collect(await store.get(key)))).toBe(sha256Hex(bytes));
  });

  test("an extra part beyond the listed ones: no digest, and the object is cut at the listed parts", async () => {
    const key = "u/22/mp";
    const bytes = randomBytes(2 * partSize);
    const id = await store.createMultipart(key);
    const receipts = [await send(key, id, 1, partSize, partOf(bytes, 1)), await send(key, id, 2, partSize, partOf(bytes, 2))];
    await send(key, id, 3, partSize, randomBytes(100));
    expect(await store.completeMultipart(key, id, receipts)).toEqual({ sha256: null });
    expect(await collect(await store.get(key))).toEqual(bytes);
  });

  test("a declared length over the part size is refused before a byte is written; the part counts as missing", async () => {
    const key = "u/23/mp";
    const id = await store.createMultipart(key);
    expect(await send(key, id, 1, 1000, randomBytes(1001))).toMatchObject({ reason: "size-mismatch", error: expect.stringMatching(/longer than the part size/) });
    expect(statSync(join(root, ".multipart", id, "data")).size).toBe(0);
    expect((await storageError(store.completeMultipart(key, id, [{ partNumber: 1, etag: "0".repeat(32) }]))).reason).toBe("bad-parts");
  });

  test("a part whose client stops half-way counts as missing; sent again, the upload still completes with its digest", async () => {
    const key = "u/24/mp";
    const bytes = randomBytes(3 * partSize);
    const id = await store.createMultipart(key);
    const broken = new ReadableStream<Uint8Array>({
      async pull(controller) {
        controller.enqueue(randomBytes(64 * 1024));
        await Bun.sleep(5);
        controller.error(new Error("client gave up"));
      },
    });
    const url = `${server.url}${key}?upload=${id}&part=2&size=${partSize}`;
    await fetch(url, { method: "PUT", body: broken, headers: { "content-length": String(partSize) }, duplex: "half" } as RequestInit).catch(() => null);
    const one = await send(key, id, 1, partSize, partOf(bytes, 1));
    expect((await storageError(store.completeMultipart(key, id, [one, { partNumber: 2, etag: one.etag }]))).reason).toBe("bad-parts");
    const rest = await Promise.all([2, 3].map((n) => send(key, id, n, partSize, partOf(bytes, n))));
    expect(await store.completeMultipart(key, id, [one, ...rest])).toEqual({ sha256: sha256Hex(bytes) });
    expect(await collect(await store.get(key))).toEqual(bytes);
  });
});
