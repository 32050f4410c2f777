/** File-system helpers for the local store: streamed positional writes and atomic moves. */
import { mkdir, open, rename, type FileHandle } from "node:fs/promises";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { pumpBlocks } from "./blocks";
import type { ByteMeter } from "./meter";

/** 1 MiB writes: measured at 2-5x the throughput of one write per 64 KiB network chunk. */
// 256 KiB writes measured 10-25% faster than 1 MiB here (dd agrees: 64-256 KiB is the sweet spot).
const WRITE_BLOCK = 256 * 1024;

/** True for errors that mean "no such object here". */
export function isMissing(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
}

async function writeFully(file: FileHandle, block: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < block.length; ) {
    const { bytesWritten } = await file.write(block, done, block.length - done, position + done);
    done += bytesWritten;
  }
}

/**
 * Streams `body` into `path` from byte `position` on. "w" creates or truncates; "r+" writes into
 * an existing file without touching other ranges, which is what lets parts land in parallel.
 */
export async function writeBodyAt(path: string, flags: "w" | "r+", position: number, body: ReadableStream<Uint8Array>, meter: ByteMeter): Promise<number> {
  const file = await open(path, flags);
  try {
    return await pumpBlocks(body, WRITE_BLOCK, {
      onChunk: (chunk) => meter.update(chunk),
      write: (block, offset) => writeFully(file, block, position + offset),
    });
  } finally {
    await file.close();
  }
}

/** rename(2) is atomic within one file system: readers see the old object or the new one. */
export async function moveIntoPlace(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await rename(from, to);
}

/** The local store's inFolder, at once: `write` again after making the folder it found missing. */
export function inFolderSync(path: string, write: () => void): void {
  try {
    write();
  } catch (err) {
    if (!isMissing(err)) throw err;
    mkdirSync(dirname(path), { recursive: true });
    write();
  }
}
