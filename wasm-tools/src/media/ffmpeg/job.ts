/** What both media tools do around an ffmpeg command: name the files, track progress, explain failures. */
import { ToolError, type RunContext } from "@vektor/shared/tools/manifest";
import { parseDuration, parseTime, summariseFailure } from "./log";
import type { ExecResult } from "./session";

/**
 * The in-memory file name for an input: `input.<ext>` with the original extension when it is a
 * plain one (ffmpeg uses it as a hint for raw formats), never the user's name (no paths, no `-`).
 */
export function inputFileName(name: string): string {
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase();
  return ext ? `input.${ext}` : "input";
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
