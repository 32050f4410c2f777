/**
 * A/B tool worker for the tools benchmark (BENCH_TOOL_WORKER=bench/lib/ab-tool-worker.ts): the
 * server's tool worker, unchanged, with zero-delay timers turned into setImmediate first. Bun
 * clamps setTimeout(fn, 0) to about 1 ms, and wasm-tools' yieldAndCheck() (runtime/context.ts)
 * awaits one per page in pdf.extract-text and pdf.render-png, so this measures what yielding
 * without the clamp would save. A probe, not the fix: the fix belongs in yieldAndCheck.
 */
const timeout = globalThis.setTimeout;
globalThis.setTimeout = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
  ms ? timeout(fn, ms, ...args) : (setImmediate(fn, ...args) as unknown as ReturnType<typeof timeout>)) as typeof setTimeout;

await import("../../server/src/jobs/tool-worker.ts");
