/**
 * Inputs and outputs as host files, where the host has them (ToolInput.path, RunContext.outputDir:
 * the server's workers): an input's folder is mounted into the operation and read by GDAL from
 * the host's disk, outputs are written into a mounted output folder and handed back by path. So
 * GDAL's memory does not grow with the file. Without them, bytes are copied in and out as before.
 */
import { mimeOf, type FormatId } from "@vektor/shared/formats";
import type { ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";
import type { Operation } from "./engine";

/** Splits `/a/b/c.json` into `/a/b` and `c.json`. */
function splitPath(path: string): [dir: string, base: string] {
  const at = path.lastIndexOf("/");
  return [path.slice(0, at) || "/", path.slice(at + 1)];
}

/** Stages `input` at `staged` (relative): a link to the mounted host file, else its bytes written. */
export function stageInput(op: Operation, input: ToolInput, staged: string): string {
  if (!input.path) return op.write(staged, input.bytes);
  const [dir, base] = splitPath(input.path);
  return op.link(staged, `${op.mountHost(dir)}/${base}`);
}

/** The whole input as bytes, for the readers that need it in memory (ZIP archives, TIFF checks). */
export function wholeInput(op: Operation, input: ToolInput): ToolInput {
  if (!input.path) return input;
  const [dir, base] = splitPath(input.path);
  const { path: _path, size: _size, ...rest } = input;
  return { ...rest, bytes: op.read(`${op.mountHost(dir)}/${base}`) };
}

/** The operation's output folder: the host's `outputDir` mounted, else one in the engine's memory. */
export function outputFolder(op: Operation, outputDir: string | undefined): string {
  return outputDir ? op.mountHost(outputDir, "out") : op.mkdir("out");
}

/** An output written at `fullPath`: by its host path when that is on the host's disk, else its bytes. */
export function fileOutput(op: Operation, fullPath: string, name: string, format: FormatId): ToolOutput {
  const host = op.hostPath(fullPath);
  if (host) return { name, bytes: new Uint8Array(0), mime: mimeOf(format), path: host };
  return { name, bytes: op.read(fullPath), mime: mimeOf(format) };
}
