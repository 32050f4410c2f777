/**
 * A disposable worker holding ONE fresh @ffmpeg/core instance for one job: the host instantiates
 * the compiled module here, writes the inputs, runs ffmpeg, reads the outputs and terminates the
 * worker. ffmpeg runs synchronously and blocks the thread it is on, so keeping it off the tool's
 * own thread is what lets an AbortSignal stop a job at once (the host terminates this worker);
 * and a fresh instance per job means a codec that corrupted its heap (libopus at 48 kHz) cannot
 * spoil the next job.
 */
import createFFmpegCore from "@ffmpeg/core";
import type { CoreFs } from "./host-fs";
import type { JobMessage, JobRequest } from "./protocol";

/** The slice of the Emscripten module @ffmpeg/core exposes that this worker uses. */
interface FfmpegCore {
  exec(...args: string[]): number;
  reset(): void;
  setLogger(logger: (entry: { type: string; message: string }) => void): void;
  FS: CoreFs & {
    writeFile(path: string, data: Uint8Array): void;
    readFile(path: string): Uint8Array;
    mkdir(path: string): void;
    mount(type: object, options: { root: string } | { blobs: { name: string; data: Blob }[] }, mountpoint: string): void;
    symlink(target: string, path: string): void;
    stat(path: string): { size: number };
    filesystems: { WORKERFS: object };
  };
}

type Factory = (options: object) => Promise<FfmpegCore>;

// The core is built for Web Workers only (ENVIRONMENT_IS_WORKER) and reads `self.location` to
// find its directory; a Bun worker has `self` but no `location`.
const scope = globalThis as { self?: { location?: { href: string } } };
scope.self ??= globalThis as { location?: { href: string } };
scope.self.location ??= { href: import.meta.url };

let core: FfmpegCore | undefined;

const post = (message: JobMessage, transfer: Transferable[] = []) => (postMessage as (m: unknown, t: Transferable[]) => void)(message, transfer);

async function init(module: WebAssembly.Module | undefined): Promise<FfmpegCore> {
  let fail: (err: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  const options = module
    ? {
        instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
          WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), fail);
          return {};
        },
      }
    : {};
  const instance = await Promise.race([(createFFmpegCore as unknown as Factory)(options), failed]);
  instance.setLogger(({ message }) => post({ type: "log", line: message }));
  return instance;
}

/** Mounts the host folder `host` at `at`: ffmpeg reads and writes its files on the host's disk. */
async function mountHost(fs: FfmpegCore["FS"], host: string, at: string, ledgers: Int32Array[]): Promise<void> {
  // Imported here, not above: it uses node:fs, and only a host with files (the server) mounts.
  const { hostFolderFs } = await import("./host-fs");
  fs.mkdir(at);
  fs.mount(hostFolderFs(fs, ledgers), { root: host }, at);
}

/** A file's size, or undefined when there is none by that name. */
function sizeOf(fs: FfmpegCore["FS"], name: string): number | undefined {
  try {
    return fs.stat(name).size;
  } catch {
    return undefined;
  }
}

function handle(request: JobRequest): Promise<JobMessage & { type: "reply" }> | (JobMessage & { type: "reply" }) {
  const { id } = request;
  if (request.type === "init") return init(request.module).then((c) => ((core = c), { type: "reply", id, ok: true }));
  if (!core) throw new Error("ffmpeg core not initialised");
  switch (request.type) {
    case "write":
      core.FS.writeFile(request.name, request.bytes);
      return { type: "reply", id, ok: true };
    case "mount":
      return mountHost(core.FS, request.host, request.at, request.ledgers).then(() => ({ type: "reply", id, ok: true }));
    case "mountBlob":
      // WORKERFS reads the Blob through FileReaderSync, a piece at a time (a Web Worker's; the browser's hosts).
      core.FS.mkdir(request.at);
      core.FS.mount(core.FS.filesystems.WORKERFS, { blobs: [{ name: request.name, data: request.blob }] }, request.at);
      return { type: "reply", id, ok: true };
    case "link":
      core.FS.symlink(request.target, request.name);
      return { type: "reply", id, ok: true };
    case "size":
      return { type: "reply", id, ok: true, size: sizeOf(core.FS, request.name) };
    case "exec": {
      core.reset();
      const code = core.exec(...request.args);
      return { type: "reply", id, ok: true, code };
    }
    case "read": {
      let bytes: Uint8Array | undefined;
      try {
        bytes = core.FS.readFile(request.name);
      } catch {
        bytes = undefined; // no such file: ffmpeg wrote nothing
      }
      return { type: "reply", id, ok: true, bytes };
    }
  }
}

self.onmessage = async (event: MessageEvent<JobRequest>) => {
  const request = event.data;
  try {
    const reply = await handle(request);
    post(reply, reply.ok && reply.bytes ? [reply.bytes.buffer as ArrayBuffer] : []);
  } catch (err) {
    post({ type: "reply", id: request.id, ok: false, message: err instanceof Error ? err.message : String(err) });
  }
};
