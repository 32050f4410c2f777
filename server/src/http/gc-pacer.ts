/**
 * Asks the JavaScript engine for a collection every few requests. Each API call leaves some
 * garbage behind (PGlite copies every query's messages out of its WASM memory; auth, routing and
 * JSON add more), and JSC's own heuristics let it pile up by 100-200 MB before collecting; the
 * allocator then keeps those pages. Measured over 600 signed-in calls: peak RSS +130 MB over
 * idle without pacing, +47 MB with a collection every 32 requests, and no slower per request.
 * Under load a collection every 32 requests became one every few milliseconds, 15 % of the
 * server's CPU (issue 14's profile): collections are also spaced by at least `minGapMs`.
 */
const EVERY = 32;
const MIN_GAP_MS = 250;

export class GcPacer {
  private count = 0;
  private last = 0;

  constructor(
    private readonly every = EVERY,
    /** Bun.gc(false) schedules a collection without blocking the request that triggers it. */
    private readonly collect: () => void = () => Bun.gc(false),
    private readonly minGapMs = MIN_GAP_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Call once per finished request. */
  tick(): void {
    if (++this.count < this.every) return;
    const now = this.now();
    if (now - this.last < this.minGapMs) return;
    this.count = 0;
    this.last = now;
    this.collect();
  }
}
