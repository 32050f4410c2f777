/**
 * sha256 of a file while it is being written, on a worker thread. The upload path hands the
 * request body to Bun's native file writer (no JavaScript per chunk: ~2x the throughput and flat
 * memory), which leaves no chunks to hash; so a second thread reads the growing file behind the
 * writer, from the page cache, and the digest is ready moments after the last byte lands.
 */
export interface FollowedHash {
  /**
   * Bytes before `limit` are written and final. Once called, the job reads only announced bytes
   * (for files written out of order, such as a multipart upload's parts).
   */
  extend(limit: number): void;
  /** The writer finished at `size` bytes: the digest, or null if the follower could not keep up. */
  finish(size: number): Promise<string | null>;
  cancel(): void;
}

export class FollowHasher {
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, (sha256: string | null) => void>();

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL("./follow-hash-worker.ts", import.meta.url).href);
    worker.onmessage = (event: MessageEvent<{ id: number; sha256: string | null }>) => {
      this.waiting.get(event.data.id)?.(event.data.sha256);
      this.waiting.delete(event.data.id);
    };
    worker.onerror = () => this.reset();
    // Bun's Worker can be unref'd (the DOM typing does not know it): hashing never keeps the process up.
    (worker as Worker & { unref(): void }).unref();
    this.worker = worker;
    return worker;
  }

  /** A dead thread answers every open job with null (callers fall back) and is replaced on next use. */
  private reset(): void {
    for (const resolve of this.waiting.values()) resolve(null);
    this.waiting.clear();
    this.worker?.terminate();
    this.worker = null;
  }

  /**
   * Starts hashing `path` (which must exist) from byte 0, following it as it grows; or, with
   * `announced`, reading only the bytes that `extend` has announced (none yet).
   */
  follow(path: string, opts: { announced?: boolean } = {}): FollowedHash {
    const worker = this.thread();
    const id = this.next++;
    const done = new Promise<string | null>((resolve) => this.waiting.set(id, resolve));
    worker.postMessage({ id, path, limit: opts.announced ? 0 : undefined });
    return {
      extend: (limit) => worker.postMessage({ id, limit }),
      finish: (size) => {
        worker.postMessage({ id, size });
        return done;
      },
      cancel: () => worker.postMessage({ id, cancel: true }),
    };
  }
}
