/**
 * Object storage seen by the rest of the server. Two backends implement it: local disk
 * (default, under DATA_DIR/objects) and any S3-compatible store. Everything streams: no method
 * takes or returns a whole object in memory.
 */
export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface ObjectInfo {
  size: number;
}

export interface PartReceipt {
  partNumber: number;
  etag: string;
}

/**
 * Where a client sends bytes. `direct` is true when the URL points at the object store itself
 * (S3 presigned URL); false when it is the server's own signed upload route (local disk).
 */
export interface UploadTarget {
  url: string;
  direct: boolean;
}

export interface ObjectStore {
  readonly kind: "local" | "s3";

  /** Write a stream to `key`; returns the byte count. Aborts and removes the partial object on error. */
  put(key: string, body: ReadableStream<Uint8Array>, opts?: { maxBytes?: number; contentType?: string }): Promise<{ size: number; sha256: string }>;
  /**
   * Optional fast path for an upload's request (local disk): same contract as `put`, reading the
   * Request itself so the runtime can write it natively.
   */
  putRequest?(key: string, request: Request, opts?: { maxBytes?: number }): Promise<{ size: number; sha256: string }>;
  /** Optional fast path for a file on this host's disk (local disk), which it takes: same contract as `put`; the caller must not use `path` afterwards. */
  putFile?(key: string, path: string): Promise<{ size: number; sha256: string }>;
  /** Optional: the object copied to the file `dest` on this host (local disk) without passing through this process. Throws StorageNotFound when missing. */
  copyToFile?(key: string, dest: string): Promise<void>;
  /**
   * Optional (local disk): the folder where a tool worker writes outputs it then hands over as
   * files (tools/staged-outputs.ts), on the store's file system so placeStaged is a rename.
   */
  readonly stagingDir?: string;
  /** Optional (local disk): the file `path` in stagingDir becomes the object `key` (moved, at once); the caller must not use `path` afterwards. */
  placeStaged?(key: string, path: string): void;
  /** Optional fast path for bytes already in memory (local disk): same contract as `put`. */
  putBytes?(key: string, bytes: Uint8Array): Promise<{ size: number; sha256: string }>;
  /**
   * Optional (local disk): a small object's bytes, read at once on this thread, when it is exactly
   * `size` bytes; null when it is missing or of another size (nothing thrown).
   */
  readSync?(key: string, size: number): Uint8Array | null;
  /** Optional: the object (or a range) as a file-backed Blob, which a Response sends with sendfile. */
  getBlob?(key: string, range?: ByteRange): Promise<Blob>;
  /** Stream an object, or a byte range of it. Throws StorageNotFound when missing. */
  get(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** Read up to `length` bytes at `offset` (for signature checks); short at end of object. */
  readBytes(key: string, offset: number, length: number): Promise<Uint8Array>;
  /** Size of an object, or null when it does not exist. */
  head(key: string): Promise<ObjectInfo | null>;
  /** sha256 hex of the whole object, computed by streaming. */
  sha256(key: string): Promise<string>;
  /** Remove an object; missing objects are not an error. */
  delete(key: string): Promise<void>;
  /**
   * Optional (local disk): removes what a crash or an abandoned upload left behind (temp files,
   * multipart folders) untouched for `olderThanMs` as of `now`; answers how many entries went.
   * S3 stores leave this to the bucket's lifecycle rules.
   */
  sweep?(olderThanMs: number, now?: number): Promise<number>;
  /** Cheap liveness check for /api/health. */
  ping(): Promise<void>;

  /** For a direct store: presigned PUT URL; local disk returns null (the server signs its own route). */
  presignPut(key: string, expiresInSeconds: number, contentType?: string): Promise<string | null>;
  /** For a direct store: presigned GET URL; local disk returns null. */
  presignGet(key: string, expiresInSeconds: number, filename?: string): Promise<string | null>;

  /** Start a multipart upload; returns the store's upload id. */
  createMultipart(key: string, contentType?: string): Promise<string>;
  /** For a direct store: presigned URL for one part; local disk returns null. */
  presignPart(key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string | null>;
  /**
   * For a relayed part (the server's signed part route): write one part from its Request (which
   * a store may write natively) or a stream.
   */
  putPart(key: string, uploadId: string, partNumber: number, partSize: number, body: Request | ReadableStream<Uint8Array>): Promise<PartReceipt>;
  /**
   * Join the parts in order into `key`. Throws StorageError on a missing part or wrong etag.
   * Answers the object's sha256 when the store took it on the way (else null: hash it after).
   */
  completeMultipart(key: string, uploadId: string, parts: PartReceipt[]): Promise<{ sha256: string | null }>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

export class StorageNotFound extends Error {
  constructor(key: string) {
    super(`object not found: ${key}`);
    this.name = "StorageNotFound";
  }
}

/** A client-caused storage failure (bad part list, body over its cap, etc.). */
export class StorageError extends Error {
  constructor(
    message: string,
    readonly reason: "bad-parts" | "too-large" | "size-mismatch" | "other" = "other",
  ) {
    super(message);
    this.name = "StorageError";
  }
}
