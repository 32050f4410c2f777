/**
 * The media family's WASM (@ffmpeg/core 0.12, single-threaded, with x264, libvpx, LAME, Vorbis,
 * Opus and lavfi): compiled once per tool worker from wherever the host's locator says, then
 * instantiated fresh for every job inside a disposable job worker (see ffmpeg/job-worker.ts).
 * Without a locator the job worker lets the core find `ffmpeg-core.wasm` itself, compiling it
 * per job.
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import { errorMessage } from "../runtime/context";
import { compileWasm, lazyOnce, locateWasm, type WasmModuleRef } from "../runtime/wasm-source";

/** ffmpeg's 32 MB binary, beside `@ffmpeg/core/dist/esm/ffmpeg-core.js`. */
export const FFMPEG_CORE_WASM: WasmModuleRef = { family: "media", name: "ffmpeg-core", pkg: "@ffmpeg/core", file: "ffmpeg-core.wasm" };

const compiled = lazyOnce(async (): Promise<WebAssembly.Module | undefined> => {
  const source = await locateWasm(FFMPEG_CORE_WASM);
  if (!source) return undefined;
  try {
    return await compileWasm(source);
  } catch (err) {
    throw new ToolError("TOOL_FAILED", `Could not load the media engine (ffmpeg-core WASM): ${errorMessage(err)}`);
  }
});

/** The compiled ffmpeg module (once per worker), or undefined when the host gave no locator. */
export function loadFfmpegModule(): Promise<WebAssembly.Module | undefined> {
  return compiled.get();
}

/** Makes the worker that runs one ffmpeg job. */
export type JobWorkerFactory = () => Worker;

/**
 * Default: the job worker module beside this family, in the `new Worker(new URL(...,
 * import.meta.url))` form that Bun runs directly and that Vite and webpack bundle as a worker
 * chunk. A host whose bundler does not (Bun.build) emits `ffmpeg/job-worker.ts` as its own entry
 * and passes a factory with that URL.
 */
let jobWorkerFactory: JobWorkerFactory = () => new Worker(new URL("./ffmpeg/job-worker.ts", import.meta.url), { type: "module" });

/** Install the host's job-worker factory (before the first media run). */
export function setJobWorkerFactory(factory: JobWorkerFactory): void {
  jobWorkerFactory = factory;
}

/** A new job worker. */
export function createJobWorker(): Worker {
  return jobWorkerFactory();
}
