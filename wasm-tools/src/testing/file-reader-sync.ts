/**
 * A Web Worker's FileReaderSync for tests in Bun, which has none: Bun reads an in-memory Blob at
 * once, so its arrayBuffer() promise is already settled and Bun.peek takes its value. Installed
 * only while `use` runs (a host that reads Blobs synchronously mounts them: runtime/blob-reads.ts),
 * so other tests in the process still see Bun as it is. Test-only; the real one is exercised in
 * Chromium (e2e/pdf-stream.e2e.ts, e2e/gis-stream.e2e.ts).
 */
import type { ToolInput } from "@vektor/shared/tools/manifest";

class BunFileReaderSync {
  /** How many reads were made and how many bytes they read, to check how reads share windows. */
  static reads = 0;
  static bytes = 0;

  readAsArrayBuffer(blob: Blob): ArrayBuffer {
    BunFileReaderSync.reads++;
    BunFileReaderSync.bytes += blob.size;
    const read = blob.arrayBuffer();
    const value = Bun.peek(read);
    if (value instanceof Promise) throw new Error("this Blob is not in memory: the test FileReaderSync reads in-memory Blobs only");
    return value;
  }
}

/** Runs `use` with a FileReaderSync on globalThis; answers what it answers, how many reads were made and their bytes. */
export async function withFileReaderSync<T>(use: () => Promise<T> | T): Promise<{ result: T; reads: number; bytes: number }> {
  const scope = globalThis as { FileReaderSync?: unknown };
  if (scope.FileReaderSync) throw new Error("this runtime has its own FileReaderSync");
  scope.FileReaderSync = BunFileReaderSync;
  BunFileReaderSync.reads = BunFileReaderSync.bytes = 0;
  try {
    return { result: await use(), reads: BunFileReaderSync.reads, bytes: BunFileReaderSync.bytes };
  } finally {
    delete scope.FileReaderSync;
  }
}

/** `bytes` as the browser's host gives a picked file: the Blob, its size and its first 64 KiB. */
export function blobInput(name: string, bytes: Uint8Array): ToolInput {
  const blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
  return { name, bytes: bytes.slice(0, 64 * 1024), blob, size: blob.size };
}
