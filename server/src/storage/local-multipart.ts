/**
 * Multipart uploads on local disk. Every part is written straight to its final offset,
 * (partNumber - 1) * partSize, in one sparse data file per upload, so completion is a truncate
 * and a rename instead of a copy of every byte. A part with a Content-Length is written by Bun's
 * native writer (native-write.ts); the object's sha256 is taken in part order while the parts
 * arrive (part-hash.ts), so completion hands confirm a digest instead of a second pass.
 *
 * Layout: `<root>/.multipart/<uploadId>/` holds `upload.json` (the key), `data`, and one
 * `part-<n>.json` record per finished part ({ size, partSize, etag }).
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FollowHasher } from "./follow-hash";
import { isMissing, moveIntoPlace, writeBodyAt } from "./local-fs";
import { ByteMeter } from "./meter";
import { punchHole, writeRequestAt } from "./native-write";
import { bodyStream, declaredLength } from "./request-body";
import { PartHashes } from "./part-hash";
import { StorageError, type PartReceipt } from "./types";
import { assertContiguous, assertKey, assertPart, normalizeEtag } from "./validate";

const UPLOAD_ID = /^[0-9a-f]{32}$/;

interface PartRecord {
  size: number;
  partSize: number;
  etag: string;
}

function unknownUpload(uploadId: string): StorageError {
  return new StorageError(`unknown multipart upload ${JSON.stringify(uploadId)}`, "bad-parts");
}

/**
 * In-process bookkeeping that keeps the writes and the completion of one upload apart: a late
 * part write after completion would land inside (or past the end of) the finished object.
 */
class UploadGate {
  private readonly uploads = new Map<string, { writes: Map<number, Promise<unknown>>; closing: boolean }>();

  /** Runs `fn` after any earlier write of the same part, so a retry never interleaves with the attempt it replaces. */
  write<T>(uploadId: string, partNumber: number, fn: () => Promise<T>): Promise<T> {
    const state = this.state(uploadId);
    if (state.closing) return Promise.reject(new StorageError("this upload is being completed", "bad-parts"));
    const previous = state.writes.get(partNumber) ?? Promise.resolve();
    const run = previous.then(
      () => fn(),
      () => fn(),
    );
    state.writes.set(partNumber, run);
    const settle = () => {
      if (state.writes.get(partNumber) === run) state.writes.delete(partNumber);
      this.prune(uploadId);
    };
    run.then(settle, settle);
    return run;
  }

  /** Runs `fn` with new part writes refused; refused itself while any part is still being written. */
  async close<T>(uploadId: string, fn: () => Promise<T>): Promise<T> {
    const state = this.state(uploadId);
    if (state.closing || state.writes.size > 0) {
      throw new StorageError("parts of this upload are still being written", "bad-parts");
    }
    state.closing = true;
    try {
      return await fn();
    } finally {
      state.closing = false;
      this.prune(uploadId);
    }
  }

  busy(uploadId: string): boolean {
    return this.uploads.has(uploadId);
  }

  private state(uploadId: string) {
    let state = this.uploads.get(uploadId);
    if (!state) this.uploads.set(uploadId, (state = { writes: new Map(), closing: false }));
    return state;
  }

  private prune(uploadId: string): void {
    const state = this.uploads.get(uploadId);
    if (state && !state.closing && state.writes.size === 0) this.uploads.delete(uploadId);
  }
}

/** Upload ids are random, so one gate serves every LocalStore of the process. */
const gate = new UploadGate();

/** The multipart half of LocalStore, kept apart because it has its own on-disk layout and locking. */
export class LocalMultipart {
  private readonly gate = gate;
  private readonly hashes: PartHashes;

  constructor(
    private readonly root: string,
    private readonly objectPath: (key: string) => string,
    hasher: FollowHasher,
  ) {
    this.hashes = new PartHashes(hasher);
  }

  private dirOf(uploadId: string): string {
    return join(this.root, ".multipart", uploadId);
  }

  /** True while this process is writing or completing the upload (the sweeper leaves it alone). */
  busy(uploadId: string): boolean {
    return this.gate.busy(uploadId);
  }

  async create(key: string): Promise<string> {
    assertKey(key);
    const uploadId = randomBytes(16).toString("hex");
    const dir = this.dirOf(uploadId);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "upload.json"), JSON.stringify({ key }));
    await writeFile(join(dir, "data"), new Uint8Array(0));
    return uploadId;
  }

  /** The upload's folder, once `uploadId` is known to be a live upload of `key`. */
  private async open(key: string, uploadId: string): Promise<string> {
    assertKey(key);
    if (typeof uploadId !== "string" || !UPLOAD_ID.test(uploadId)) throw unknownUpload(String(uploadId));
    const dir = this.dirOf(uploadId);
    let meta: { key?: unknown };
    try {
      meta = JSON.parse(await readFile(join(dir, "upload.json"), "utf8"));
    } catch {
      throw unknownUpload(uploadId);
    }
    if (meta.key !== key) throw unknownUpload(uploadId);
    return dir;
  }

  /** `body` is the part's Request (written natively when it declares its length) or a stream. */
  async putPart(key: string, uploadId: string, partNumber: number, partSize: number, body: Request | ReadableStream<Uint8Array>): Promise<PartReceipt> {
    try {
      assertPart(partNumber, partSize);
      if (body instanceof Request && declaredLength(body) > partSize) throw partTooLong(partNumber, partSize);
    } catch (err) {
      await cancelBody(body, err);
      throw err;
    }
    // Registered with the gate before the first await, so a completion cannot slip in between.
    return this.gate.write(uploadId, partNumber, async () => {
      // A request its client gave up on before its turn came (a busy server reaches it late)
      // must not drop the record of a later attempt at the same part, made by a resumed upload.
      if (body instanceof Request && body.signal.aborted) throw new StorageError(`part ${partNumber}: the client closed the request before it was written`, "bad-parts");
      const dir = await this.open(key, uploadId).catch(async (err) => {
        await cancelBody(body, err);
        throw err;
      });
      return this.writePart(dir, uploadId, partNumber, partSize, body);
    });
  }

  private async writePart(dir: string, uploadId: string, partNumber: number, partSize: number, body: Request | ReadableStream<Uint8Array>): Promise<PartReceipt> {
    const record = join(dir, `part-${partNumber}.json`);
    const data = join(dir, "data");
    // Drop the old record first: until the new bytes are all down, this part counts as missing.
    await rm(record, { force: true });
    this.hashes.starting(uploadId, partNumber);
    try {
      const size = await writePartBytes(data, partNumber, partSize, body);
      // The etag names this attempt, not the content: the object's sha256 is what vouches for
      // the bytes, and a content hash per part would read every byte a second time.
      const entry: PartRecord = { size, partSize, etag: randomBytes(16).toString("hex") };
      await writeFile(record, JSON.stringify(entry));
      this.hashes.finished(uploadId, data, partNumber, partSize, size, entry.etag);
      return { partNumber, etag: entry.etag };
    } catch (err) {
      // The folder vanished underneath us: the upload was aborted or completed meanwhile.
      if (isMissing(err)) throw unknownUpload(uploadId);
      if (isDiskFull(err)) await releasePart(data, partNumber, partSize);
      throw err;
    }
  }

  /** Joins the parts; the sha256 of the object when it was taken on the way, else null. */
  async complete(key: string, uploadId: string, parts: PartReceipt[]): Promise<{ sha256: string | null }> {
    assertContiguous(parts);
    return this.gate.close(uploadId, async () => {
      const dir = await this.open(key, uploadId);
      const records = await readRecords(dir, parts.length);
      const total = checkedTotal(parts, records);
      const data = join(dir, "data");
      // Before the truncate: the hasher reads this file up to `total` at most.
      const sha256 = await this.hashes.digest(uploadId, parts, total);
      // Drops bytes past the end: unlisted parts, or an earlier longer attempt at the last part.
      await truncate(data, total).catch((err) => {
        throw isMissing(err) ? unknownUpload(uploadId) : err;
      });
      await moveIntoPlace(data, this.objectPath(key));
      await rm(dir, { recursive: true, force: true });
      return { sha256 };
    });
  }

  /** Stops the upload's hash job (the sweeper is removing the upload). */
  forget(uploadId: string): void {
    this.hashes.forget(uploadId);
  }

  /** Missing or foreign uploads are not an error: aborting twice is fine. */
  async abort(key: string, uploadId: string): Promise<void> {
    this.hashes.forget(uploadId);
    let dir: string;
    try {
      dir = await this.open(key, uploadId);
    } catch (err) {
      if (err instanceof StorageError) return;
      throw err;
    }
    await rm(dir, { recursive: true, force: true });
  }
}

function isDiskFull(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | null, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === "ENOSPC" || e.code === "EDQUOT") return true;
  }
  return false;
}

/**
 * Frees what a part that met a full disk had written, so the space comes back at once instead of
 * when the upload ends. Its range is punched out of the sparse file; where the filesystem cannot
 * do that, a part at the end of the file is cut off (nothing of another part lies past it).
 */
async function releasePart(data: string, partNumber: number, partSize: number): Promise<void> {
  const offset = (partNumber - 1) * partSize;
  if (punchHole(data, offset, partSize)) return;
  const size = await stat(data).then((s) => s.size, () => 0);
  if (size > offset && size <= offset + partSize) await truncate(data, offset).catch(() => {});
}

function partTooLong(partNumber: number, partSize: number): StorageError {
  return new StorageError(`part ${partNumber} is longer than the part size (${partSize} bytes)`, "size-mismatch");
}

async function cancelBody(body: Request | ReadableStream<Uint8Array>, reason: unknown): Promise<void> {
  const stream = body instanceof Request ? body.body : body;
  await stream?.cancel(reason).catch(() => {});
}

/**
 * Writes one part at its offset: natively when the request declares its length (checked
 * against the part size by the caller), else streamed through a meter that stops it at the
 * part size. Returns the part's size.
 */
async function writePartBytes(data: string, partNumber: number, partSize: number, body: Request | ReadableStream<Uint8Array>): Promise<number> {
  const offset = (partNumber - 1) * partSize;
  if (body instanceof Request) {
    const declared = declaredLength(body);
    if (declared === 0) return 0;
    const written = Number.isNaN(declared) ? null : await writeRequestAt(data, offset, body);
    if (written !== null && written !== declared) throw new StorageError(`part ${partNumber} ended after ${written} of ${declared} bytes`, "size-mismatch");
    if (written !== null) return written;
  }
  const meter = new ByteMeter(null, { max: partSize, error: () => partTooLong(partNumber, partSize) });
  await writeBodyAt(data, "r+", offset, bodyStream(body), meter);
  return meter.bytes;
}

/** Reads records 1..count, 64 at a time so 10,000 parts do not open 10,000 files at once. */
async function readRecords(dir: string, count: number): Promise<(PartRecord | null)[]> {
  const read = async (n: number): Promise<PartRecord | null> => {
    try {
      return JSON.parse(await readFile(join(dir, `part-${n}.json`), "utf8")) as PartRecord;
    } catch {
      return null;
    }
  };
  const out: (PartRecord | null)[] = [];
  for (let first = 1; first <= count; first += 64) {
    const batch = Array.from({ length: Math.min(64, count - first + 1) }, (_, i) => read(first + i));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/** Checks the client's list against what was written and returns the object's exact size. */
function checkedTotal(parts: PartReceipt[], records: (PartRecord | null)[]): number {
  // Identity first (every part there, with its etag), then sizes, so a missing part reads as such.
  const found = records.map((record, i) => {
    if (!record) throw new StorageError(`part ${i + 1} was not uploaded`, "bad-parts");
    if (normalizeEtag(parts[i].etag) !== record.etag) throw new StorageError(`part ${i + 1}: etag does not match the uploaded bytes`, "bad-parts");
    return record;
  });
  const { partSize } = found[0];
  found.forEach((record, i) => {
    if (record.partSize !== partSize) throw new StorageError(`part ${i + 1} was sent with part size ${record.partSize}, part 1 with ${partSize}`, "size-mismatch");
    if (i < found.length - 1 && record.size !== partSize) throw new StorageError(`part ${i + 1} has ${record.size} bytes; every part but the last needs ${partSize}`, "size-mismatch");
  });
  return (found.length - 1) * partSize + found[found.length - 1].size;
}
