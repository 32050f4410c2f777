/**
 * Worker thread of FollowHasher: hashes files that are still being written.
 *
 * Messages: { id, path, limit? } starts a job at byte 0; { id, limit } says bytes up to `limit` are
 * written (a job that has had one never reads past the latest, and waits for the next instead
 * of polling); { id, size } says the writer is done at `size` bytes; { id, cancel: true } stops.
 * Without a limit the job follows the file's end as it grows. Answers { id, sha256 }, or
 * { id, sha256: null } when the file stopped short of its final size (the caller then hashes it
 * the slow way) or the job was cancelled.
 */
import { open } from "node:fs/promises";

declare const self: Worker;

const BLOCK = 1 << 20;
/** How long a file may sit short of its announced final size before the follower gives up. */
const STALL_MS = 2_000;

interface Job {
  size?: number;
  limit?: number;
  cancelled?: boolean;
  /** Set while a limited job waits for its next message. */
  wake?: () => void;
}
const jobs = new Map<number, Job>();

/** How far the job may read now: the final size, else the latest limit, else the file's end. */
function readable(job: Job): number {
  return job.size ?? job.limit ?? Infinity;
}

/**
 * Reads and hashes in turn with two buffers: the read of the next block (on Bun's I/O threads)
 * runs while this thread hashes the current one, so the copy out of the page cache does not add
 * to the hashing time.
 */
async function follow(path: string, job: Job): Promise<string | null> {
  const file = await open(path, "r");
  const buffers = [new Uint8Array(BLOCK), new Uint8Array(BLOCK)];
  let current = 0;
  const readInto = (buf: Uint8Array, at: number, end: number) => file.read(buf, 0, Math.min(BLOCK, end - at), at).then((r) => r.bytesRead);
  let ahead: { at: number; bytes: Promise<number> } | null = null;
  try {
    const hasher = new Bun.CryptoHasher("sha256");
    let position = 0;
    let idleSince = 0;
    for (;;) {
      if (job.cancelled) return null;
      if (job.size !== undefined && position >= job.size) return position === job.size ? hasher.digest("hex") : null;
      const end = readable(job);
      if (position >= end) {
        await new Promise<void>((resolve) => (job.wake = resolve));
        continue;
      }
      const bytesRead: number = ahead?.at === position ? await ahead.bytes : await readInto(buffers[current], position, end);
      ahead = null;
      if (bytesRead > 0) {
        const block = buffers[current];
        current ^= 1;
        const next: number = position + bytesRead;
        if (next < end) ahead = { at: next, bytes: readInto(buffers[current], next, end) };
        hasher.update(block.subarray(0, bytesRead));
        position = next;
        idleSince = 0;
        continue;
      }
      // Caught up with the writer: wait for more bytes, but not forever once the end is known.
      if (job.size !== undefined || job.limit !== undefined) {
        idleSince ||= performance.now();
        if (performance.now() - idleSince > STALL_MS) return null;
      }
      await Bun.sleep(1);
    }
  } finally {
    await ahead?.bytes.catch(() => 0);
    await file.close();
  }
}

self.onmessage = (event: MessageEvent<{ id: number; path?: string; size?: number; limit?: number; cancel?: boolean }>) => {
  const { id, path, size, limit, cancel } = event.data;
  if (path !== undefined) {
    const job: Job = { limit };
    jobs.set(id, job);
    follow(path, job)
      .catch(() => null)
      .then((sha256) => {
        jobs.delete(id);
        self.postMessage({ id, sha256 });
      });
    return;
  }
  const job = jobs.get(id);
  if (!job) return;
  if (cancel) job.cancelled = true;
  if (size !== undefined) job.size = size;
  if (limit !== undefined) job.limit = Math.max(job.limit ?? 0, limit);
  job.wake?.();
  job.wake = undefined;
};
