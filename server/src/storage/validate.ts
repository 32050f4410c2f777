/**
 * Argument checks shared by both backends, so a bad key, range or part list fails the same way
 * on local disk and on S3 (and never reaches the file system or the network).
 */
import { StorageError, type ByteRange, type PartReceipt } from "./types";

/** S3's own limits: keys up to 1024 bytes, part numbers 1..10000, parts up to 5 GiB. */
const MAX_KEY_BYTES = 1024;
export const MAX_PARTS = 10_000;
export const MAX_PART_SIZE = 5 * 1024 ** 3;

/**
 * Keys are relative, slash-separated paths (`u/<userId>/<fileId>`). Refusing `..`, absolute
 * paths and backslashes keeps a key inside the local root; refusing every segment that starts
 * with a dot also keeps keys clear of the local store's own `.tmp` and `.multipart` folders.
 */
export function assertKey(key: string): void {
  const bad = (why: string) => new StorageError(`invalid storage key ${JSON.stringify(key)}: ${why}`);
  if (typeof key !== "string" || key.length === 0) throw bad("empty");
  if (new TextEncoder().encode(key).length > MAX_KEY_BYTES) throw bad("too long");
  if (key.includes("\\")) throw bad("backslash");
  if (/[\u0000-\u001f\u007f]/.test(key)) throw bad("control character");
  if (key.startsWith("/")) throw bad("absolute path");
  for (const segment of key.split("/")) {
    if (segment === "") throw bad("empty path segment");
    if (segment.startsWith(".")) throw bad("segment starts with a dot");
  }
}

function isCount(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

/** A range must be two byte positions with start <= end; the end may run past the object. */
export function assertRange(range: ByteRange): void {
  if (!isCount(range.start) || !isCount(range.end) || range.end < range.start) {
    throw new StorageError(`invalid byte range ${range.start}-${range.end}`);
  }
}

/** Clamps the end to the object, and refuses a start at or past its end (HTTP's 416). */
export function clampRange(range: ByteRange, size: number): ByteRange {
  assertRange(range);
  if (range.start >= size) throw new StorageError(`range starts at ${range.start}, past the end of a ${size}-byte object`);
  return { start: range.start, end: Math.min(range.end, size - 1) };
}

/** A readBytes window: two non-negative integers. */
export function assertWindow(offset: number, length: number): void {
  if (!isCount(offset) || !isCount(length)) throw new StorageError(`invalid read window ${offset}+${length}`);
}

/** Part numbers and part sizes within S3's limits, so both backends accept the same plans. */
export function assertPart(partNumber: number, partSize: number): void {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS) {
    throw new StorageError(`part number must be 1..${MAX_PARTS}, got ${partNumber}`, "bad-parts");
  }
  if (!Number.isInteger(partSize) || partSize < 1 || partSize > MAX_PART_SIZE) {
    throw new StorageError(`part size must be 1..${MAX_PART_SIZE} bytes, got ${partSize}`, "size-mismatch");
  }
}

/** A completion lists parts 1..N in order, each once: anything else is a client bug. */
export function assertContiguous(parts: PartReceipt[]): void {
  if (parts.length === 0 || parts.length > MAX_PARTS) throw new StorageError(`a completion needs 1..${MAX_PARTS} parts`, "bad-parts");
  parts.forEach((p, i) => {
    if (p.partNumber !== i + 1) throw new StorageError(`parts must be numbered 1..${parts.length} in order; position ${i + 1} has part ${p.partNumber}`, "bad-parts");
    if (typeof p.etag !== "string" || p.etag === "") throw new StorageError(`part ${p.partNumber} has no etag`, "bad-parts");
  });
}

/** S3 quotes its ETags and compares them without quotes; do the same on local disk. */
export function normalizeEtag(etag: string): string {
  return etag.replaceAll('"', "").trim().toLowerCase();
}
