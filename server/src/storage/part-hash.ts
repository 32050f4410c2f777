/**
 * The sha256 of a multipart upload, taken while its parts are still arriving. Parts land out of
 * order, but a digest must read the object front to back: so each finished part is queued, and
 * the hasher (a FollowHasher job on the upload's data file) is told how far the unbroken run
 * of finished parts from part 1 reaches. By the time the client completes, most of the object
 * is hashed, and confirm needs no second pass over the bytes.
 *
 * The digest is only an optimisation, so anything unusual gives it up (the caller then hashes
 * the finished object): a part written again after the hasher passed it, parts handled by
 * another server process, a completion that lists other parts than the ones hashed.
 */
import type { FollowedHash, FollowHasher } from "./follow-hash";
import type { PartReceipt } from "./types";
import { normalizeEtag } from "./validate";

/** An upload with no part activity for this long is forgotten (its hash job is cancelled). */
const IDLE_MS = 60 * 60_000;

interface UploadHash {
  job: FollowedHash;
  partSize: number;
  /** Etags of parts 1..n, whose bytes have been handed to the hasher. */
  hashed: string[];
  /** Bytes handed to the hasher: parts 1..hashed.length. */
  bytes: number;
  /** Finished parts past the unbroken run, by part number. */
  queued: Map<number, { size: number; etag: string }>;
  /** A short part ends the object: nothing after it is hashed. */
  ended: boolean;
  invalid: boolean;
  idle?: Timer;
}

export class PartHashes {
  private readonly uploads = new Map<string, UploadHash>();

  constructor(
    private readonly hasher: FollowHasher,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** A write of `partNumber` begins: if its old bytes were hashed already, the digest is lost. */
  starting(uploadId: string, partNumber: number): void {
    const upload = this.uploads.get(uploadId);
    if (!upload || upload.invalid) return;
    this.touch(uploadId, upload);
    upload.queued.delete(partNumber);
    if (partNumber <= upload.hashed.length) this.invalidate(upload);
  }

  /** `partNumber` is fully written to `dataPath` at its offset, (partNumber - 1) * partSize. */
  finished(uploadId: string, dataPath: string, partNumber: number, partSize: number, size: number, etag: string): void {
    let upload = this.uploads.get(uploadId);
    if (!upload) {
      upload = this.open(dataPath, partSize);
      this.uploads.set(uploadId, upload);
    }
    if (upload.invalid) return;
    this.touch(uploadId, upload);
    if (partSize !== upload.partSize || partNumber <= upload.hashed.length) return this.invalidate(upload);
    upload.queued.set(partNumber, { size, etag });
    this.advance(upload);
  }

  /**
   * The digest of the completed object, when the hasher covered exactly `parts` (`total` bytes);
   * otherwise null. Waits for the hasher to reach the end. Forgets the upload either way.
   */
  async digest(uploadId: string, parts: PartReceipt[], total: number): Promise<string | null> {
    const upload = this.detach(uploadId);
    if (!upload || upload.invalid) return null;
    const same = upload.hashed.length === parts.length && upload.bytes === total && parts.every((p, i) => normalizeEtag(p.etag) === upload.hashed[i]);
    if (!same) {
      upload.job.cancel();
      return null;
    }
    return upload.job.finish(total);
  }

  /** Drops an upload (aborted, swept): its hash job stops. */
  forget(uploadId: string): void {
    const upload = this.detach(uploadId);
    if (upload && !upload.invalid) upload.job.cancel();
  }

  /** Removes the upload from the books (and its idle timer), leaving its hash job as it is. */
  private detach(uploadId: string): UploadHash | undefined {
    const upload = this.uploads.get(uploadId);
    if (!upload) return undefined;
    this.uploads.delete(uploadId);
    clearTimeout(upload.idle);
    return upload;
  }

  private open(dataPath: string, partSize: number): UploadHash {
    const job = this.hasher.follow(dataPath, { announced: true });
    return { job, partSize, hashed: [], bytes: 0, queued: new Map(), ended: false, invalid: false };
  }

  /** Hands the hasher every queued part that continues the unbroken run from part 1. */
  private advance(upload: UploadHash): void {
    const before = upload.bytes;
    for (let next = upload.queued.get(upload.hashed.length + 1); next && !upload.ended; next = upload.queued.get(upload.hashed.length + 1)) {
      upload.queued.delete(upload.hashed.length + 1);
      upload.hashed.push(next.etag);
      upload.bytes += next.size;
      upload.ended = next.size !== upload.partSize;
    }
    if (upload.bytes > before) upload.job.extend(upload.bytes);
  }

  private invalidate(upload: UploadHash): void {
    upload.invalid = true;
    upload.queued.clear();
    upload.job.cancel();
  }

  private touch(uploadId: string, upload: UploadHash): void {
    clearTimeout(upload.idle);
    upload.idle = setTimeout(() => this.forget(uploadId), this.idleMs);
    upload.idle.unref();
  }
}
