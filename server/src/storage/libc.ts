/**
 * The few libc calls that neither Bun nor node:fs offer, loaded once through bun:ffi: lseek(2)
 * for positional native writes, fallocate(2) to give a failed part's blocks back. Null where the
 * platform has no glibc or refuses FFI; callers then fall back to plain JavaScript.
 */
import { dlopen, FFIType } from "bun:ffi";

export interface Libc {
  lseek(fd: number, offset: number, whence: number): number | bigint;
  fallocate(fd: number, mode: number, offset: number, length: number): number;
}

export const SEEK_SET = 0;
/** fallocate modes: free the range's blocks and keep the file's length. */
export const FALLOC_FL_KEEP_SIZE = 0x01;
export const FALLOC_FL_PUNCH_HOLE = 0x02;

let loaded: Libc | null | undefined;

export function libc(): Libc | null {
  if (loaded !== undefined) return loaded;
  try {
    const lib = dlopen("libc.so.6", {
      lseek: { args: [FFIType.i32, FFIType.i64, FFIType.i32], returns: FFIType.i64 },
      fallocate: { args: [FFIType.i32, FFIType.i32, FFIType.i64, FFIType.i64], returns: FFIType.i32 },
    });
    loaded = lib.symbols as unknown as Libc;
  } catch {
    loaded = null;
  }
  return loaded;
}
