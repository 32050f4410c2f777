/**
 * The default object store: files under one directory (DATA_DIR/objects). Writes stream into
 * `.tmp/` and are renamed into place, so a reader never sees a partial object and a failed
 * write leaves nothing behind.
 */
import { randomBytes } from "node:crypto";
import { copyFile, mkdir, open, readdir, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { closeSync, fstatSync, openSync, readSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FollowHasher } from "./follow-hash";
import { LocalMultipart } from "./local-multipart";
import { inFolderSync, isMissing, moveIntoPlace, writeBodyAt } from "./local-fs";
import { bodyTooLarge, putMeter } from "./meter";
import { bodyStream, declaredLength } from "./request-body";
import { StorageNotFound, type ByteRange, type ObjectInfo, type ObjectStore, type PartReceipt } from "./types";
import { assertKey, assertWindow, clampRange } from "./validate";

const HASH_BLOCK = 1 << 20;
/** Outputs this small are written without the thread pool (putBytes). */
const SYNC_PUT_MAX = 64 * 1024;

/** ObjectStore on local disk, rooted at `root` (created on first write). */
export class LocalStore implements ObjectStore {
  readonly kind = "local" as const;
  private readonly multipart: LocalMultipart;
  private readonly hasher = new FollowHasher();

  /** The store's temp folder: writes land here first, and tool workers stage their outputs here. */
  readonly stagingDir: string;

  constructor(private readonly root: string) {
    this.stagingDir = join(root, ".tmp");
    this.multipart = new LocalMultipart(root, (key) => this.pathOf(key), this.hasher);
  }

  private pathOf(key: string): string {
    assertKey(key);
    return join(this.root, key);
  }

  /** A fresh temp path inside the root, so the final rename stays on one file system. */
  private async tempPath(): Promise<string> {
    const dir = this.stagingDir;
    await mkdir(dir, { recursive: true });
    return join(dir, randomBytes(12).toString("hex"));
  }

  /** Size of the object at `path`, or StorageNotFound. */
  private async sizeOf(path: string, key: string): Promise<number> {
    const info = await this.statObject(path);
    if (!info) throw new StorageNotFound(key);
    return info.size;
  }

  private async statObject(path: string): Promise<ObjectInfo | null> {
    try {
      const info = await stat(path);
      return info.isFile() ? { size: info.size } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  /**
   * `put` for bytes already in memory (a small tool output): one write and one rename instead of
   * a stream pumped in blocks, hashed in one call; the folders known to exist are not made again.
   * Up to SYNC_PUT_MAX bytes the two calls are made at once rather than on the thread pool: its
   * two hand-offs cost more than such a write (a split's 30 one-page PDFs: 3.0 ms stored through
   * the pool, 1.2 ms at once), and the event loop waits no longer than for a hand-off.
   */
  async putBytes(key: string, bytes: Uint8Array): Promise<{ size: number; sha256: string }> {
    const dest = this.pathOf(key);
    const tmp = join(this.stagingDir, randomBytes(12).toString("hex"));
    const sha256 = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
    try {
      if (bytes.byteLength <= SYNC_PUT_MAX) {
        inFolderSync(tmp, () => writeFileSync(tmp, bytes));
        inFolderSync(dest, () => renameSync(tmp, dest));
      } else {
        await this.inFolder(tmp, () => writeFile(tmp, bytes));
        await this.inFolder(dest, () => rename(tmp, dest));
      }
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return { size: bytes.byteLength, sha256 };
  }

  placeStaged(key: string, path: string): void {
    const dest = this.pathOf(key);
    inFolderSync(dest, () => renameSync(path, dest));
  }

  /**
   * Takes the file at `path` (a tool's output in its job folder) as the object `key`: hashed a
   * block at a time through one buffer, then moved into place (copied where `path` is on another
   * file system). A gigabyte output is neither written a second time nor held in memory. The
   * file is the store's afterwards: the caller must not use `path` again.
   */
  async putFile(key: string, path: string): Promise<{ size: number; sha256: string }> {
    const dest = this.pathOf(key);
    const sha256 = await this.hashFile(path);
    const { size } = await stat(path);
    await this.inFolder(dest, () =>
      rename(path, dest).catch(async (err) => {
        if ((err as { code?: string }).code !== "EXDEV") throw err;
        const tmp = await this.tempPath();
        await copyFile(path, tmp);
        await moveIntoPlace(tmp, dest);
      }),
    );
    return { size, sha256 };
  }

  /** Copies the object to the file `dest` in the kernel (copy_file_range; a reflink where the file system has them): no byte passes through this process. */
  async copyToFile(key: string, dest: string): Promise<void> {
    await copyFile(this.pathOf(key), dest).catch((err) => {
      throw isMissing(err) ? new StorageNotFound(key) : err;
    });
  }

  /** Runs `write` of `path`; when its folder is missing (first use, or removed since), makes it and runs it again. */
  private async inFolder<T>(path: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (!isMissing(err)) throw err;
      await mkdir(dirname(path), { recursive: true });
      return write();
    }
  }

  async put(key: string, body: ReadableStream<Uint8Array>, opts: { maxBytes?: number; contentType?: string } = {}): Promise<{ size: number; sha256: string }> {
    const dest = this.pathOf(key);
    const { maxBytes } = opts;
    const meter = putMeter(maxBytes);
    const tmp = await this.tempPath();
    try {
      await writeBodyAt(tmp, "w", 0, body, meter);
      await moveIntoPlace(tmp, dest);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return { size: meter.bytes, sha256: meter.hex() };
  }

  /**
   * A request body with a Content-Length goes to disk through Bun's native writer while a
   * worker thread hashes the file behind it; without one (chunked), through `put`.
   */
  async putRequest(key: string, request: Request, opts: { maxBytes?: number } = {}): Promise<{ size: number; sha256: string }> {
    const declared = declaredLength(request);
    if (Number.isNaN(declared)) return this.put(key, bodyStream(request), opts);
    if (opts.maxBytes !== undefined && declared > opts.maxBytes) throw bodyTooLarge(opts.maxBytes);
    const dest = this.pathOf(key);
    const tmp = await this.tempPath();
    await writeFile(tmp, "");
    const hash = this.hasher.follow(tmp);
    try {
      const size = declared === 0 ? 0 : await Bun.write(tmp, request);
      const sha256 = (await hash.finish(size)) ?? (await this.hashFile(tmp));
      await moveIntoPlace(tmp, dest);
      return { size, sha256 };
    } catch (err) {
      hash.cancel();
      await rm(tmp, { force: true });
      throw err;
    }
  }

  readSync(key: string, size: number): Uint8Array | null {
    let fd: number | null = null;
    try {
      fd = openSync(this.pathOf(key), "r");
      if (fstatSync(fd).size !== size) return null;
      // Its own buffer, exactly the object: it is transferred to a tool worker whole.
      const bytes = new Uint8Array(size);
      return readSync(fd, bytes, 0, size, 0) === size ? bytes : null;
    } catch {
      return null;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }

  /** The object as a file-backed Blob: a Response with it as body is sent by the kernel (sendfile). */
  async getBlob(key: string, range?: ByteRange): Promise<Blob> {
    const path = this.pathOf(key);
    const size = await this.sizeOf(path, key);
    if (!range) return Bun.file(path);
    const { start, end } = clampRange(range, size);
    return Bun.file(path).slice(start, end + 1);
  }

  async get(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>> {
    const path = this.pathOf(key);
    const size = await this.sizeOf(path, key);
    if (!range) return Bun.file(path).stream();
    const { start, end } = clampRange(range, size);
    return Bun.file(path).slice(start, end + 1).stream();
  }

  async readBytes(key: string, offset: number, length: number): Promise<Uint8Array> {
    assertWindow(offset, length);
    const path = this.pathOf(key);
    await this.sizeOf(path, key);
    return Bun.file(path)
      .slice(offset, offset + length)
      .bytes();
  }

  async head(key: string): Promise<ObjectInfo | null> {
    return this.statObject(this.pathOf(key));
  }

  /**
   * Hashes through one reused buffer: a stream would hand over a fresh buffer per chunk, and in
   * a busy server that garbage piles up to the object's size before it is collected.
   */
  sha256(key: string): Promise<string> {
    return this.hashFile(this.pathOf(key), key);
  }

  private async hashFile(path: string, key = path): Promise<string> {
    const handle = await open(path, "r").catch((err) => {
      throw isMissing(err) ? new StorageNotFound(key) : err;
    });
    try {
      const hasher = new Bun.CryptoHasher("sha256");
      const buf = new Uint8Array(HASH_BLOCK);
      for (;;) {
        const { bytesRead } = await handle.read(buf, 0, HASH_BLOCK, null);
        if (bytesRead === 0) break;
        hasher.update(buf.subarray(0, bytesRead));
      }
      return hasher.digest("hex");
    } finally {
      await handle.close();
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  /** Writes and removes a probe file: a read-only or full disk fails here, not on the next upload. */
  async ping(): Promise<void> {
    const probe = await this.tempPath();
    // Removed even when the write fails: on a full disk the file exists, empty, and the probe
    // must not leave one behind every time health is asked.
    try {
      await writeFile(probe, "ok");
    } finally {
      await rm(probe, { force: true });
    }
  }

  /** The server signs its own upload and download routes for local disk. */
  async presignPut(_key: string, _expiresInSeconds: number, _contentType?: string): Promise<string | null> {
    return null;
  }

  async presignGet(_key: string, _expiresInSeconds: number, _filename?: string): Promise<string | null> {
    return null;
  }

  async presignPart(_key: string, _uploadId: string, _partNumber: number, _expiresInSeconds: number): Promise<string | null> {
    return null;
  }

  createMultipart(key: string): Promise<string> {
    return this.multipart.create(key);
  }

  putPart(key: string, uploadId: string, partNumber: number, partSize: number, body: Request | ReadableStream<Uint8Array>): Promise<PartReceipt> {
    return this.multipart.putPart(key, uploadId, partNumber, partSize, body);
  }

  completeMultipart(key: string, uploadId: string, parts: PartReceipt[]): Promise<{ sha256: string | null }> {
    return this.multipart.complete(key, uploadId, parts);
  }

  abortMultipart(key: string, uploadId: string): Promise<void> {
    return this.multipart.abort(key, uploadId);
  }

  /**
   * Removes temp files and multipart uploads untouched for `olderThanMs`: what a crash or an
   * abandoned upload leaves behind (S3 has lifecycle rules for this; local disk has this).
   * Returns how many entries were removed.
   */
  async sweep(olderThanMs: number, now = Date.now()): Promise<number> {
    const cutoff = now - olderThanMs;
    let removed = 0;
    for (const folder of [".tmp", ".multipart"]) {
      const dir = join(this.root, folder);
      const names = await readdir(dir).catch((err) => (isMissing(err) ? [] : Promise.reject(err)));
      for (const name of names) {
        if (folder === ".multipart" && this.multipart.busy(name)) continue;
        const info = await stat(join(dir, name)).catch(() => null);
        if (!info || info.mtimeMs >= cutoff) continue;
        if (folder === ".multipart") this.multipart.forget(name);
        await rm(join(dir, name), { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }
}
