/**
 * media.thumbnail: a first ffmpeg pass reads the header (streams, duration) so the default time
 * and the range check can use the duration, then a second pass seeks and encodes one frame.
 * Both run in the same fresh core instance.
 */
import { ToolError, type ToolRun } from "@vektor/shared/tools/manifest";
import { checkpoint, stem } from "../../runtime/context";
import { CoreFiles, DEMUXERS, failure } from "../ffmpeg/job";
import { parseInput } from "../ffmpeg/log";
import { withFfmpeg } from "../ffmpeg/session";
import type { Params } from "./manifest";

/** The default frame time: 1 s in, or 10% in for videos shorter than 10 s. */
export function defaultTime(duration: number | undefined): number {
  return duration !== undefined && duration < 10 ? duration * 0.1 : 1;
}

export const run: ToolRun<Params> = async ([input], params, ctx) => {
  const jpeg = params.format === "jpeg";
  const target = jpeg ? "frame.jpg" : "frame.png";
  return withFfmpeg(ctx, async (ffmpeg) => {
    const files = await CoreFiles.stage(ffmpeg, input, ctx.outputDir);
    const source = files.source;
    ctx.onProgress(0.1, "reading the video's header");
    const probe = await ffmpeg.exec(["-hide_banner", "-format_whitelist", DEMUXERS.video, "-i", source]); // exits 1 ("no output file") after printing the header
    const info = parseInput(probe.log);
    if (!info.video) {
      if (!info.audio && !info.duration) throw failure(input.name, probe, "a video");
      throw new ToolError("INPUT_INVALID", `"${input.name}" has no video stream to take a frame from`);
    }
    const at = params.atSeconds ?? defaultTime(info.duration);
    if (info.duration !== undefined && at >= info.duration) {
      throw new ToolError("PARAMS_INVALID", `Invalid params: atSeconds: ${at} s is past the end of the video (${info.duration.toFixed(2)} s)`);
    }
    checkpoint(ctx);
    ctx.onProgress(0.4, `taking the frame at ${at.toFixed(2)} s`);
    const scale = params.width ? [`scale=${params.width}:-2`] : [];
    const pixels = jpeg ? ["format=yuvj420p"] : ["format=rgb24"];
    const result = await ffmpeg.exec([
      "-hide_banner",
      "-ss",
      at.toFixed(3),
      "-format_whitelist",
      DEMUXERS.video,
      "-i",
      source,
      "-map",
      "0:v:0",
      "-frames:v",
      "1",
      "-vf",
      [...scale, ...pixels].join(","),
      ...(jpeg ? ["-c:v", "mjpeg", "-q:v", "3"] : ["-c:v", "png"]),
      "-f",
      "image2",
      "-fflags",
      "+bitexact",
      files.target(target),
    ]);
    if (result.code !== 0) throw failure(input.name, result, "a video");
    const out = await files.take(target, `${stem(input.name)}.${jpeg ? "jpg" : "png"}`, jpeg ? "jpeg" : "png");
    if (!out) throw new ToolError("INPUT_INVALID", `"${input.name}" has no decodable frame at ${at.toFixed(2)} s`);
    return [out];
  });
};
