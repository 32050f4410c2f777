/**
 * A request body written into an existing file at an offset by Bun's native writer: no
 * JavaScript per chunk, so a 16 MiB part costs a few syscalls instead of 256 stream reads, and
 * no chunk garbage piles up while four parts arrive at once.
 *
 * Bun writes to a file descriptor at its current position (without truncating), but neither Bun
 * nor node:fs can move that position, so lseek(2) comes from libc through bun:ffi (libc.ts). Where that
 * is not available (no glibc, FFI refused) `writeRequestAt` answers null and the caller streams
 * the body through JavaScript instead.
 */
import { closeSync, openSync } from "node:fs";
import { FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE, libc, SEEK_SET } from "./libc";

/** True when `writeRequestAt` can write natively here. */
export function nativeWritesAt(): boolean {
  return libc() !== null;
}

/**
 * Writes `request`'s body into `path` (which must exist) from byte `position` on, leaving the
 * rest of the file as it is. Resolves to the byte count, or null when native positional writes
 * are not available (nothing was read from the request then).
 */
export async function writeRequestAt(path: string, position: number, request: Request): Promise<number | null> {
  const c = libc();
  if (!c) return null;
  const fd = openSync(path, "r+");
  try {
    if (Number(c.lseek(fd, position, SEEK_SET)) !== position) throw new Error(`lseek to ${position} failed`);
    return await Bun.write(Bun.file(fd), request);
  } finally {
    closeSync(fd);
  }
}

/**
 * Gives the blocks of [offset, offset + length) back to the filesystem and keeps the file's
 * length: a part that failed half-written on a full disk must not hold its bytes until the
 * upload is aborted or swept. False where that is not available (no glibc, or a filesystem
 * without hole punching); nothing was changed then.
 */
export function punchHole(path: string, offset: number, length: number): boolean {
  const c = libc();
  if (!c || length <= 0) return false;
  const fd = openSync(path, "r+");
  try {
    return c.fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, length) === 0;
  } finally {
    closeSync(fd);
  }
}
