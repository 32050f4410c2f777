/** What both media tools do around an ffmpeg command: name the files, track progress, explain failures. */
import { mimeOf, type FormatId } from "@vektor/shared/formats";
import { ToolError, type RunContext, type ToolInput, type ToolOutput } from "@vektor/shared/tools/manifest";
import { output } from "../../runtime/context";
import { parseDuration, parseTime, summariseFailure } from "./log";
import type { ExecResult, FfmpegSession } from "./session";

/**
 * The in-memory file name for an input: `input.<ext>` with the original extension when it is a
 * plain one (ffmpeg uses it as a hint for raw formats), never the user's name (no paths, no `-`).
 */
export function inputFileName(name: string): string {
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase();
  return ext ? `input.${ext}` : "input";
}

/** Where a job's host folders are mounted in the core. */
const INPUT_FOLDER = "/host-input";
const OUTPUT_FOLDER = "/host-output";
/** Where a browser's File or Blob input is mounted in the core. */
const BLOB_FOLDER = "/blob-input";

/**
 * A job's files in the core. Where the host gives host files (ToolInput.path and
 * RunContext.outputDir: the server), the input's folder and the output folder are mounted
 * (host-fs.ts), so ffmpeg reads and writes on the host's disk and the WASM heap holds neither
 * file: its memory no longer grows with the file. A browser's File or Blob input (ToolInput.blob)
 * is mounted (WORKERFS) and read a piece at a time; other inputs' bytes are written into the
 * core's memory. Without an output folder (a browser), outputs are read out of the core's memory.
 */
export class CoreFiles {
  private constructor(
    private readonly ffmpeg: FfmpegSession,
    /** The input's name in the core (see inputFileName; a link to the host file when there is one). */
    readonly source: string,
    private readonly outputDir: string | undefined,
  ) {}

  static async stage(ffmpeg: FfmpegSession, input: ToolInput, outputDir: string | undefined): Promise<CoreFiles> {
    const source = inputFileName(input.name);
    if (input.path) {
      const at = input.path.lastIndexOf("/");
      await ffmpeg.mountHost(input.path.slice(0, at) || "/", INPUT_FOLDER);
      await ffmpeg.link(`${INPUT_FOLDER}/${input.path.slice(at + 1)}`, source);
    } else if (input.blob) {
      await ffmpeg.mountBlob(input.blob, source, BLOB_FOLDER);
      await ffmpeg.link(`${BLOB_FOLDER}/${source}`, source);
    } else {
      await ffmpeg.write(source, input.bytes);
    }
    const out = outputDir?.replace(/\/+$/, "");
    if (out) await ffmpeg.mountHost(out, OUTPUT_FOLDER);
    return new CoreFiles(ffmpeg, source, out);
  }

  /** Where ffmpeg is told to write the file `name`. */
  target(name: string): string {
    return this.outputDir ? `${OUTPUT_FOLDER}/${name}` : name;
  }

  /** What ffmpeg wrote as `name`, handed back as `outName`: by its host path, else its bytes; undefined when empty or missing. */
  async take(name: string, outName: string, format: FormatId): Promise<ToolOutput | undefined> {
    if (!this.outputDir) {
      const bytes = await this.ffmpeg.read(name);
      return bytes?.length ? output(outName, format, bytes) : undefined;
    }
    if (!(await this.ffmpeg.size(this.target(name)))) return undefined;
    return { name: outName, bytes: new Uint8Array(0), mime: mimeOf(format), path: `${this.outputDir}/${name}` };
  }
}

/**
 * ffmpeg demuxers a tool may open (`-format_whitelist`, an input option). Without it ffmpeg also
 * "reads" plain text (the tty demuxer renders it as video) and many other non-media formats.
 */
export const DEMUXERS = {
  audioOrVideo: "wav,mp3,ogg,flac,mov,matroska",
  video: "mov,matroska,ogg",
} as const;

/**
 * A log-line listener that turns `time=` against the input's `Duration:` into progress between
 * `from` and `to` (fractions of the whole run).
 */
export function progressFromLog(ctx: RunContext, from: number, to: number, message: string): (line: string) => void {
  let duration: number | undefined;
  return (line) => {
    duration ??= parseDuration(line);
    const time = parseTime(line);
    if (time === undefined || !duration) return;
    ctx.onProgress(from + (to - from) * Math.min(1, time / duration), message);
  };
}

/** Turns a failed ffmpeg run into a ToolError: the input's fault (INPUT_INVALID) or ffmpeg's (TOOL_FAILED). */
export function failure(inputName: string, result: ExecResult, what: string, fileName = inputFileName(inputName)): ToolError {
  const rejected = result.log.map((l) => /\[(\w+) @ 0x[0-9a-f]+\] Format not on whitelist/.exec(l)?.[1]).find(Boolean);
  if (rejected) return new ToolError("INPUT_INVALID", `"${inputName}" is not ${what} in a supported format (ffmpeg detected "${rejected}")`);
  const { inputProblem, summary: raw } = summariseFailure(result.log);
  // ffmpeg prefixes the in-memory name and `[demuxer @ 0x...]`, which mean nothing to the user
  const summary = raw.replaceAll(`${fileName}: `, "").replace(/\[[^\]]* @ 0x[0-9a-f]+\] /g, "");
  if (inputProblem) return new ToolError("INPUT_INVALID", `"${inputName}" could not be read as ${what} (ffmpeg: ${summary})`);
  return new ToolError("TOOL_FAILED", `ffmpeg failed on "${inputName}" with exit code ${result.code} (${summary})`);
}
