/**
 * How long this machine's CPU caches keep a process's data: the same 256 KB read back to back,
 * then after 10 ms asleep. On the shared virtual machines this project is developed on, other
 * tenants evict it in the gap: 6 µs back to back, 32-40 µs after 10 ms, and as much when the
 * process spent the 10 ms busy on a loop of its own instead of asleep. A tool call made after a
 * pause pays that cold cost on every step, the PGlite figure most (two statements through a WASM
 * build of Postgres), so the tools benchmark prints it beside the fixed overhead.
 */
const BYTES = 256 * 1024;
const GAP_MS = 10;
const SAMPLES = 150;

export interface CacheRetention {
  /** Median µs to read BYTES again at once. */
  hotUs: number;
  /** Median µs to read them again after GAP_MS asleep. */
  afterGapUs: number;
}

export async function cacheRetention(): Promise<CacheRetention> {
  const data = new Int32Array(BYTES / 4).map((_, i) => i);
  // One read per 64-byte line: what is measured is whether the line is still cached.
  const read = () => {
    let sum = 0;
    for (let i = 0; i < data.length; i += 16) sum += data[i];
    return sum;
  };
  for (let i = 0; i < 500; i++) read();
  const timed = async (gapMs: number) => {
    const xs: number[] = [];
    for (let k = 0; k < SAMPLES; k++) {
      if (gapMs) await Bun.sleep(gapMs);
      else read();
      const t0 = performance.now();
      read();
      xs.push((performance.now() - t0) * 1000);
    }
    return xs.sort((a, b) => a - b)[SAMPLES >> 1];
  };
  return { hotUs: await timed(0), afterGapUs: await timed(GAP_MS) };
}

export function cacheRetentionNote(r: CacheRetention): string {
  return `host caches: 256 KB read again after ${GAP_MS} ms asleep took ${r.afterGapUs.toFixed(1)} µs, at once ${r.hotUs.toFixed(1)} µs (${(r.afterGapUs / r.hotUs).toFixed(1)}x): how much colder a pause between calls leaves every step of the next one on this machine`;
}
