/**
 * Object storage on any S3-compatible service (AWS, MinIO, R2, Garage...). Browsers upload and
 * download through presigned URLs, so large bodies do not pass through the server.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { readAtMost } from "./blocks";
import { putMeter, sha256Of } from "./meter";
import { bodyStream } from "./request-body";
import { putStream } from "./s3-put";
import { StorageError, StorageNotFound, type ByteRange, type ObjectInfo, type ObjectStore, type PartReceipt } from "./types";
import { assertContiguous, assertKey, assertPart, assertRange, assertWindow } from "./validate";

/** Connection settings; the same shape as the server's S3_* environment variables. */
export interface S3Config {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/** 8 MiB parts for server-side puts: two are in memory per put, and 10,000 of them make 78 GiB. */
const DEFAULT_PUT_PART_SIZE = 8 * 1024 * 1024;
/** S3 refuses smaller parts (except the last) at completion. */
const MIN_PART_SIZE = 5 * 1024 * 1024;

function errorName(err: unknown): string | undefined {
  return (err as { name?: string } | null)?.name;
}

function errorStatus(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

/** A missing key; a missing bucket is a configuration error and stays as it is. */
function isNotFound(err: unknown): boolean {
  const name = errorName(err);
  if (name === "NoSuchBucket") return false;
  return name === "NoSuchKey" || name === "NotFound" || errorStatus(err) === 404;
}

function rethrowForKey(err: unknown, key: string): never {
  if (isNotFound(err)) throw new StorageNotFound(key);
  if (errorName(err) === "InvalidRange") throw new StorageError(`range not satisfiable for ${key}`);
  throw err;
}

/** `attachment` with an ASCII fallback and the RFC 5987 UTF-8 form, so any file name survives. */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const utf8 = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** ObjectStore over an S3 bucket; `putPartSize` only sets the part size of server-side puts. */
export class S3Store implements ObjectStore {
  readonly kind = "s3" as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly putPartSize: number;

  constructor(config: S3Config, opts: { putPartSize?: number } = {}) {
    this.bucket = config.bucket;
    this.putPartSize = opts.putPartSize ?? DEFAULT_PUT_PART_SIZE;
    if (this.putPartSize < MIN_PART_SIZE) throw new Error(`putPartSize must be at least ${MIN_PART_SIZE} bytes`);
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Path-style URLs work on every S3-compatible server; virtual hosts need DNS per bucket.
      forcePathStyle: true,
      // The SDK's default adds CRC32 checksums, and its presigned URLs then carry the checksum
      // of an empty body, which S3 rejects for any real upload; many S3-compatible servers do
      // not know the headers at all.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  async put(key: string, body: ReadableStream<Uint8Array>, opts: { maxBytes?: number; contentType?: string } = {}): Promise<{ size: number; sha256: string }> {
    try {
      assertKey(key);
    } catch (err) {
      await body.cancel(err).catch(() => {});
      throw err;
    }
    const { maxBytes } = opts;
    const meter = putMeter(maxBytes);
    await putStream(this.client, { Bucket: this.bucket, Key: key, ContentType: opts.contentType }, body, meter, this.putPartSize);
    return { size: meter.bytes, sha256: meter.hex() };
  }

  async get(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>> {
    assertKey(key);
    if (range) assertRange(range);
    const Range = range && `bytes=${range.start}-${range.end}`;
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range })).catch((err) => rethrowForKey(err, key));
    if (!res.Body) throw new StorageError(`no body for ${key}`);
    return res.Body.transformToWebStream();
  }

  async readBytes(key: string, offset: number, length: number): Promise<Uint8Array> {
    assertKey(key);
    assertWindow(offset, length);
    if (length === 0) {
      if (!(await this.head(key))) throw new StorageNotFound(key);
      return new Uint8Array(0);
    }
    const Range = `bytes=${offset}-${offset + length - 1}`;
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range })).catch((err) => {
      // The object exists but ends before `offset`: a short read, like reading past EOF.
      if (errorName(err) === "InvalidRange") return null;
      return rethrowForKey(err, key);
    });
    return (await res?.Body?.transformToByteArray()) ?? new Uint8Array(0);
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async sha256(key: string): Promise<string> {
    return sha256Of(await this.get(key));
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  /** With a content type, the header is signed: the client must send exactly that type. */
  async presignPut(key: string, expiresInSeconds: number, contentType?: string): Promise<string | null> {
    assertKey(key);
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType });
    return getSignedUrl(this.client, command, { expiresIn: expiresInSeconds, signableHeaders: contentType ? new Set(["content-type"]) : undefined });
  }

  async presignGet(key: string, expiresInSeconds: number, filename?: string): Promise<string | null> {
    assertKey(key);
    const ResponseContentDisposition = filename === undefined ? undefined : attachmentDisposition(filename);
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentDisposition }), { expiresIn: expiresInSeconds });
  }

  async createMultipart(key: string, contentType?: string): Promise<string> {
    assertKey(key);
    const res = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }));
    if (!res.UploadId) throw new StorageError(`no upload id for ${key}`);
    return res.UploadId;
  }

  async presignPart(key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string | null> {
    assertKey(key);
    assertPart(partNumber, 1);
    const command = new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber });
    return getSignedUrl(this.client, command, { expiresIn: expiresInSeconds });
  }

  /**
   * For when clients cannot reach the S3 endpoint (e.g. a MinIO on a private network) and the
   * server relays parts: holds one part in memory, since S3 needs its length up front.
   */
  async putPart(key: string, uploadId: string, partNumber: number, partSize: number, source: Request | ReadableStream<Uint8Array>): Promise<PartReceipt> {
    const body = bodyStream(source);
    try {
      assertKey(key);
      assertPart(partNumber, partSize);
    } catch (err) {
      await body.cancel(err).catch(() => {});
      throw err;
    }
    const tooLong = () => new StorageError(`part ${partNumber} is longer than the part size (${partSize} bytes)`, "size-mismatch");
    const bytes = await readAtMost(body, partSize, tooLong);
    const command = new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: bytes, ContentLength: bytes.length });
    const res = await this.client.send(command).catch((err) => {
      throw errorName(err) === "NoSuchUpload" ? new StorageError(`unknown multipart upload ${uploadId}`, "bad-parts") : err;
    });
    return { partNumber, etag: res.ETag ?? "" };
  }

  async completeMultipart(key: string, uploadId: string, parts: PartReceipt[]): Promise<{ sha256: null }> {
    assertKey(key);
    assertContiguous(parts);
    const MultipartUpload = { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) };
    try {
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload }));
    } catch (err) {
      const name = errorName(err);
      if (name === "EntityTooSmall") throw new StorageError(`a part of ${key} is below S3's 5 MiB minimum`, "size-mismatch");
      if (name === "InvalidPart" || name === "InvalidPartOrder" || name === "NoSuchUpload") throw new StorageError(`${name}: ${(err as Error).message}`, "bad-parts");
      throw err;
    }
    return { sha256: null };
  }

  /** An upload that is already gone is not an error: aborting twice is fine. */
  async abortMultipart(key: string, uploadId: string): Promise<void> {
    assertKey(key);
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (err) {
      if (errorName(err) !== "NoSuchUpload" && errorStatus(err) !== 404) throw err;
    }
  }
}
