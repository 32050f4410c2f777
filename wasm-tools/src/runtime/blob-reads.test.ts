/**
 * Synchronous Blob reads (a browser's File in the tool worker) answer the bytes the same reads
 * answer from memory: small reads from a shared read-ahead window, big ones as asked, nothing past
 * the end. Bun has no FileReaderSync: the test's stands in (testing/file-reader-sync.ts); the real
 * one is exercised in Chromium by the streaming e2e specs.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { withFileReaderSync } from "../testing/file-reader-sync";
import { blobReadAt, readsBlobsSync } from "./blob-reads";

const MB = 1024 * 1024;

/** What reading `length` bytes at `position` answers from `read`. */
function readOnce(read: (into: Uint8Array, position: number) => number, position: number, length: number): Uint8Array {
  const into = new Uint8Array(length);
  return into.subarray(0, read(into, position));
}

describe("reading a Blob synchronously", () => {
  const bytes = new Uint8Array(randomBytes(10 * MB + 123));
  const blob = new Blob([bytes]);

  test("small, big, window-crossing and past-the-end reads answer the bytes at their positions", async () => {
    const reads: [number, number][] = [
      [0, 1024],
      [1024, 40_000],
      [4 * MB - 10, 100], // past the first window's end
      [3 * MB, 5 * MB], // bigger than a window
      [bytes.length - 50, 4096], // runs past the end
      [bytes.length, 10],
      [bytes.length + 5, 10],
      [7, 0],
    ];
    const { result } = await withFileReaderSync(() => {
      const read = blobReadAt(blob);
      return reads.map(([position, length]) => Buffer.from(readOnce(read, position, length)).equals(Buffer.from(bytes.subarray(position, position + length))));
    });
    expect(result).toEqual(reads.map(() => true));
  });

  test("reads in order, a few KB at a time, read the file once, in windows that grow to 4 MB", async () => {
    const { result, reads, bytes: read } = await withFileReaderSync(() => {
      const readAt = blobReadAt(blob);
      const whole = new Uint8Array(bytes.length);
      for (let at = 0, n; (n = readAt(whole.subarray(at, at + 8192), at)) > 0; at += n);
      return Buffer.from(whole).equals(Buffer.from(bytes));
    });
    expect(result).toBe(true);
    expect(read).toBe(bytes.length);
    // 64 KB, 128 KB, ... 4 MB (7 windows, 8 MB less 64 KB), then 4 MB windows to the end.
    expect(reads).toBe(7 + Math.ceil((bytes.length - (8 * MB - 64 * 1024)) / (4 * MB)));
  });

  test("small reads here and there (a PDF's objects) read 64 KB each; going back to a held window reads nothing", async () => {
    const places = [4 * MB - 300, 9 * MB, 1000, 4 * MB - 300 + 5000, 9 * MB + 60_000, 2000, 6 * MB];
    const { result, reads, bytes: read } = await withFileReaderSync(() => {
      const readAt = blobReadAt(blob);
      return places.every((position) => Buffer.from(readOnce(readAt, position, 4096)).equals(Buffer.from(bytes.subarray(position, position + 4096))));
    });
    expect(result).toBe(true);
    expect(reads).toBe(4);
    expect(read).toBe(4 * 64 * 1024);
  });

  test("outside a Web Worker (no FileReaderSync) a Blob is not read synchronously", () => {
    expect(readsBlobsSync()).toBe(false);
    expect(() => blobReadAt(blob)).toThrow(/FileReaderSync/);
  });
});
