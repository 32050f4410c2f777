/**
 * Worker thread of FollowHasher: hashes files that another writer is still appending to.
 * Messages: { id, path } starts following; { id, size } says the writer is done at `size`
 * bytes; { id, cancel: true } stops. Answers { id, sha256 } or { id, sha256: null } when the
 * file stopped growing short of its final size (the caller then hashes it the slow way).
 */
import { open } from "node:fs/promises";

declare const self: Worker;

const BLOCK = 1 << 20;
/** How long a file may sit short of its announced final size before the follower gives up. */
const STALL_MS = 2_000;

interface Job {
  size?: number;
  cancelled?: boolean;
}
const jobs = new Map<number, Job>();

async function follow(path: string, job: Job): Promise<string | null> {
  const file = await open(path, "r");
  try {
    const hasher = new Bun.CryptoHasher("sha256");
    const buf = new Uint8Array(BLOCK);
    let position = 0;
    let idleSince = 0;
    for (;;) {
      if (job.cancelled) return null;
      if (job.size !== undefined && position >= job.size) return position === job.size ? hasher.digest("hex") : null;
      const want = job.size === undefined ? BLOCK : Math.min(BLOCK, job.size - position);
      const { bytesRead } = await file.read(buf, 0, want, position);
      if (bytesRead > 0) {
        hasher.update(buf.subarray(0, bytesRead));
        position += bytesRead;
        idleSince = 0;
        continue;
      }
      // Caught up with the writer: wait for more bytes, but not forever once the end is known.
      if (job.size !== undefined) {
        idleSince ||= performance.now();
        if (performance.now() - idleSince > STALL_MS) return null;
      }
      await Bun.sleep(1);
    }
  } finally {
    await file.close();
  }
}

self.onmessage = (event: MessageEvent<{ id: number; path?: string; size?: number; cancel?: boolean }>) => {
  const { id, path, size, cancel } = event.data;
  if (path !== undefined) {
    const job: Job = {};
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
};
