/**
 * Inputs and outputs as host files, where the host has them (ToolInput.path, RunContext.outputDir:
 * the server's workers): an input's folder is mounted into the operation and read by GDAL from
 * the host's disk, outputs are written into a mounted output folder and handed back by path. So
 * GDAL's memory does not grow with the file. In the browser's tool worker an input given as a
 * File or Blob (ToolInput.blob) is mounted (WORKERFS) and read the same way; outputs there are
 * written to the Origin Private File System and handed back as Files on disk, where the host gives
 * a folder there (RunContext.outputFolder). Without either, bytes are copied in and out as before.
 */
import { mimeOf, type FormatId } from "@vektor/shared/formats";
import { ToolError, type RunContext, type ToolInput, type ToolOutput } from "@vektor/shared/tools/manifest";
import type { Operation } from "./engine";
import { DiskOutputs } from "./opfs-output";

/** Splits `/a/b/c.json` into `/a/b` and `c.json`. */
function splitPath(path: string): [dir: string, base: string] {
  const at = path.lastIndexOf("/");
  return [path.slice(0, at) || "/", path.slice(at + 1)];
}

/** Where the whole of `input` is in the engine's file system when it is mounted (a host file or a Blob), else null. */
function mountedInput(op: Operation, input: ToolInput): string | null {
  if (input.blob) return op.mountBlob(input.blob, splitPath(input.name)[1] || "input");
  if (!input.path) return null;
  const [dir, base] = splitPath(input.path);
  return `${op.mountHost(dir)}/${base}`;
}

/** Stages `input` at `staged` (relative): a link to the mounted host file or Blob, else its bytes written. */
export function stageInput(op: Operation, input: ToolInput, staged: string): string {
  const mounted = mountedInput(op, input);
  return mounted ? op.link(staged, mounted) : op.write(staged, input.bytes);
}

/** The whole input as bytes, for the readers that need it in memory (ZIP archives, TIFF checks). */
export function wholeInput(op: Operation, input: ToolInput): ToolInput {
  const mounted = mountedInput(op, input);
  if (!mounted) return input;
  const { path: _path, blob: _blob, size: _size, ...rest } = input;
  return { ...rest, bytes: op.read(mounted) };
}

/** What a run says when the browser's storage for the site ran out while it wrote an output there. */
const STORAGE_FULL =
  "This browser's storage for the site is full, so the output could not be written: free some disk space (or clear this site's stored data) and run it again, or run it on the server";

/** Where an operation writes its outputs, and how each comes back. */
export interface OutputFolder {
  /** The folder's full path in the engine. */
  dir: string;
  /** The output written at `fullPath`: by its host path, as a File on disk (the browser), or as its bytes. */
  output(fullPath: string, name: string, format: FormatId): Promise<ToolOutput>;
}

/**
 * The operation's output folder: the host's `outputDir` mounted (the server), else one whose files
 * named `names` (the outputs the tool will write there) go to the browser's `outputFolder` on disk
 * (opfs-output.ts), else one in the engine's memory.
 */
export async function outputFolder(op: Operation, place: Pick<RunContext, "outputDir" | "outputFolder">, names: string[]): Promise<OutputFolder> {
  const plain = (dir: string): OutputFolder => ({ dir, output: async (fullPath, name, format) => hostOrMemoryOutput(op, fullPath, name, format) });
  if (place.outputDir) return plain(op.mountHost(place.outputDir, "out"));
  const disk = await DiskOutputs.open(place.outputFolder, names);
  if (!disk) return plain(op.mkdir("out"));
  op.whenEnded((failed) => disk.release(failed));
  op.explainFailures(() => (disk.full ? new ToolError("TOOL_FAILED", STORAGE_FULL) : undefined));
  const dir = op.mountFs((m) => disk.fileSystem(m), "out");
  return {
    dir,
    output: async (fullPath, name, format) => {
      const blob = await disk.file(op.module, fullPath);
      return blob ? { name, bytes: new Uint8Array(0), mime: mimeOf(format), blob } : hostOrMemoryOutput(op, fullPath, name, format);
    },
  };
}

/** An output written at `fullPath`: by its host path when that is on the host's disk, else its bytes. */
function hostOrMemoryOutput(op: Operation, fullPath: string, name: string, format: FormatId): ToolOutput {
  const host = op.hostPath(fullPath);
  if (host) return { name, bytes: new Uint8Array(0), mime: mimeOf(format), path: host };
  return { name, bytes: op.read(fullPath), mime: mimeOf(format) };
}
