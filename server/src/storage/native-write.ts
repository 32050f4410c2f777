/**
 * A request body written into an existing file at an offset by Bun's native writer: no
 * JavaScript per chunk, so a 16 MiB part costs a few syscalls instead of 256 stream reads, and
 * no chunk garbage piles up while four parts arrive at once.
 *
 * Bun writes to a file descriptor at its current position (without truncating), but neither Bun
 * nor node:fs can move that position, so lseek(2) comes from libc through bun:ffi. Where that
 * is not available (no glibc, FFI refused) `writeRequestAt` answers null and the caller streams
 * the body through JavaScript instead.
 */
import { dlopen, FFIType } from "bun:ffi";
import { closeSync, openSync } from "node:fs";

type Lseek = (fd: number, offset: number, whence: number) => number | bigint;
const SEEK_SET = 0;

let lseek: Lseek | null | undefined;

/** libc's lseek, loaded once; null when this platform does not offer it. */
function loadLseek(): Lseek | null {
  if (lseek !== undefined) return lseek;
  try {
    const libc = dlopen("libc.so.6", { lseek: { args: [FFIType.i32, FFIType.i64, FFIType.i32], returns: FFIType.i64 } });
    lseek = libc.symbols.lseek as Lseek;
  } catch {
    lseek = null;
  }
  return lseek;
}

/** True when `writeRequestAt` can write natively here. */
export function nativeWritesAt(): boolean {
  return loadLseek() !== null;
}

/**
 * Writes `request`'s body into `path` (which must exist) from byte `position` on, leaving the
 * rest of the file as it is. Resolves to the byte count, or null when native positional writes
 * are not available (nothing was read from the request then).
 */
export async function writeRequestAt(path: string, position: number, request: Request): Promise<number | null> {
  const seek = loadLseek();
  if (!seek) return null;
  const fd = openSync(path, "r+");
  try {
    if (Number(seek(fd, position, SEEK_SET)) !== position) throw new Error(`lseek to ${position} failed`);
    return await Bun.write(Bun.file(fd), request);
  } finally {
    closeSync(fd);
  }
}
