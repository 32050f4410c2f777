/**
 * Collections paced through loops that call into an engine many thousand times. Emscripten's
 * embind, built without dynamic code (web-ifc's bindings), leaves a few closures and arrays
 * behind on every call, and JSC (Bun: the server's tool workers) puts off its next collection
 * in proportion to the heap, which counts the engine's WASM memory: meshing a 40 MB IFC model
 * left 300 MB of garbage uncollected until the loop returned, and the bigger the model, the
 * more. A loop calls `paceGarbage()` once per engine call; every MIN_GAP_MS at most it starts
 * a collection through the host's hook. The host installs it (the server's tool workers:
 * Bun.gc(false), started and not waited for); an injected function, not a global, keeps run
 * modules portable. Browsers install none (V8 scavenges short-lived garbage on its own).
 */

/** Calls between two looks at the clock (reading it costs more than counting). */
const CHECK_EVERY = 256;
/** At most one collection this often: a few tens of MB of garbage at the engines' pace. */
const MIN_GAP_MS = 50;

let collect: (() => void) | undefined;
let calls = 0;
let last = -Infinity;

/** Install the host's way to start a collection (undefined: none). */
export function setGarbageCollector(next: (() => void) | undefined): void {
  collect = next;
}

/** Counts one engine call; now and then starts a collection through the host's hook. */
export function paceGarbage(): void {
  if (!collect || ++calls < CHECK_EVERY) return;
  calls = 0;
  const now = performance.now();
  if (now - last < MIN_GAP_MS) return;
  last = now;
  collect();
}
