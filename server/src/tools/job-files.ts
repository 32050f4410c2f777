/**
 * A tool job's folder on the host's disk, for tools that read and write host files (manifest
 * io.hostFiles): each input is streamed from the store into `in/<n>/<name>` and the tool gets its
 * path and first bytes; outputs land in `out/` and are streamed to the store from there. So
 * neither this process nor the tool worker holds a whole file. The folder goes when the job ends.
 */
import { mkdir, open, readdir, rm, stat, type FileHandle } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import { randomBase62 } from "../lib/ids";
import type { Logger } from "../log";

/** The first bytes a tool gets of a staged input: enough to tell any format the tools read. */
const HEAD_BYTES = 64 * 1024;

/** How much of an output is read at a time on its way to the store. */
const READ_CHUNK = 1024 * 1024;

/**
 * A job folder untouched this long was left by a process that stopped mid-job (a crash, a kill):
 * every job that ends removes its own, and a run ends within its timeout (TOOL_TIMEOUT_MS, 5
 * minutes by default).
 */
export const LEFTOVER_JOB_FOLDER_MS = 24 * 3_600_000;

export class JobFiles {
  private staged = 0;

  private constructor(readonly dir: string) {}

  /** A fresh folder under `root` for the job `key`. */
  static async create(root: string, key: string): Promise<JobFiles> {
    // Named job-<key>-<random>: sweepJobFolders removes such folders only.
    const dir = resolve(root, `job-${key.replace(/[^A-Za-z0-9_-]/g, "_")}-${randomBase62(8)}`);
    await mkdir(join(dir, "out"), { recursive: true });
    return new JobFiles(dir);
  }

  /** Where the tool writes its outputs. */
  get outputDir(): string {
    return join(this.dir, "out");
  }

  /** Has `fill` write the input to disk under its own name; answers the input as the tool gets it. */
  async stage(input: { name: string; mime?: string; size: number }, fill: (path: string) => Promise<void>): Promise<ToolInput> {
    // A folder per input: two inputs of one name do not meet, and each folder is mounted alone.
    const folder = join(this.dir, "in", String(this.staged++));
    await mkdir(folder, { recursive: true });
    const path = join(folder, input.name.replace(/[/\\\0]/g, "_") || "input");
    await fill(path);
    const bytes = await Bun.file(path).slice(0, HEAD_BYTES).bytes();
    return { name: input.name, mime: input.mime, bytes, path, size: input.size };
  }

  /**
   * An output's bytes as a stream: from its file in the output folder, else the bytes it carries.
   * A path outside the output folder is refused: the worker names it, and only that folder is the job's.
   */
  body(out: ToolOutput): ReadableStream<Uint8Array> {
    return out.path ? readChunks(this.outputPath(out.path)) : bytesBody(out);
  }

  /** An output file the tool named: refused unless inside the output folder (the worker names it, and only that folder is the job's). */
  outputPath(path: string): string {
    if (!resolve(path).startsWith(`${this.outputDir}/`)) throw new Error(`The tool named an output outside its folder: ${path}`);
    return path;
  }

  remove(): Promise<void> {
    return rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * Removes the job folders under `root` untouched for `olderThanMs` (a stopped process's: their
 * inputs and outputs can be gigabytes, and the job itself ran again elsewhere with a folder of its
 * own). Only by age: processes that share the folder (ROLE=worker beside the API) run jobs in it.
 * Answers how many were removed.
 */
export async function sweepJobFolders(root: string, olderThanMs = LEFTOVER_JOB_FOLDER_MS, now = Date.now()): Promise<number> {
  const names = await readdir(root).catch((err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? [] : Promise.reject(err)));
  let removed = 0;
  for (const name of names.filter((n) => n.startsWith("job-"))) {
    const info = await stat(join(root, name)).catch(() => null);
    if (!info?.isDirectory() || info.mtimeMs >= now - olderThanMs) continue;
    await rm(join(root, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** How often a process sweeps its job folders (and once as it starts). */
const SWEEP_EVERY_MS = 3_600_000;

/** Sweeps `root`'s leftover job folders now and every hour; answers the function that stops it. */
export function keepSweepingJobFolders(root: string, log: Logger): () => void {
  const sweep = () =>
    void sweepJobFolders(root).then(
      (removed) => {
        if (removed) log.info({ removed, root }, "removed job folders a stopped process left");
      },
      (err) => log.warn({ err, root }, "job folder sweep failed"),
    );
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** Writes `body` to `path` chunk by chunk through a file sink: nothing of it is held beyond the chunk in hand. */
export async function streamToFile(body: ReadableStream<Uint8Array>, path: string): Promise<void> {
  const sink = Bun.file(path).writer();
  for await (const chunk of body) await sink.write(chunk);
  await sink.end();
}

/** An output's bytes as a stream, for a job without a folder (its outputs carry their bytes). */
export function bytesBody(out: ToolOutput): ReadableStream<Uint8Array> {
  return new Response(out.bytes as Uint8Array<ArrayBuffer>).body!;
}

/**
 * A file as a stream read READ_CHUNK bytes at a time into fresh buffers: a Blob's stream may map
 * the whole file into memory (its pages count in the process's RSS), a 1 GB output included.
 */
function readChunks(path: string): ReadableStream<Uint8Array> {
  let handle: FileHandle | null = null;
  return new ReadableStream({
    async pull(controller) {
      handle ??= await open(path, "r");
      const { bytesRead, buffer } = await handle.read(new Uint8Array(READ_CHUNK), 0, READ_CHUNK, null);
      if (bytesRead > 0) return controller.enqueue(buffer.subarray(0, bytesRead));
      await handle.close();
      controller.close();
    },
    async cancel() {
      await handle?.close();
    },
  });
}
