/** media.transcode: one ffmpeg command in a fresh core instance; progress from its log. */
import type { FormatId } from "@vektor/shared/formats";
import { ToolError, type ToolRun } from "@vektor/shared/tools/manifest";
import { stem } from "../../runtime/context";
import { CoreFiles, DEMUXERS, failure, progressFromLog } from "../ffmpeg/job";
import { withFfmpeg } from "../ffmpeg/session";
import { AUDIO_TARGETS, type Params } from "./manifest";

type Target = Params["to"];

const AUDIO: Record<(typeof AUDIO_TARGETS)[number], { codec: string[]; muxer: string; ext: string; defaultKbps?: number }> = {
  mp3: { codec: ["-c:a", "libmp3lame"], muxer: "mp3", ext: "mp3", defaultKbps: 192 },
  ogg: { codec: ["-c:a", "libvorbis"], muxer: "ogg", ext: "ogg", defaultKbps: 160 },
  // libopus at 48 kHz corrupts this build's heap: resample to 24 kHz (Opus still decodes at 48 kHz).
  opus: { codec: ["-c:a", "libopus", "-ar", "24000"], muxer: "opus", ext: "opus", defaultKbps: 96 },
  wav: { codec: ["-c:a", "pcm_s16le"], muxer: "wav", ext: "wav" },
  flac: { codec: ["-c:a", "flac"], muxer: "flac", ext: "flac" },
};

const isAudio = (to: Target): to is keyof typeof AUDIO => to in AUDIO;

/** Video scaling: at most `maxWidth` wide, even dimensions (4:2:0 chroma needs them). */
function scaleFilter(maxWidth: number | undefined): string {
  const width = maxWidth ? `trunc(min(iw\\,${maxWidth})/2)*2` : "trunc(iw/2)*2";
  return `scale=${width}:-2`;
}

/** ffmpeg arguments (after the input) for `params`. Exported for tests. */
export function encodeArgs(params: Params): string[] {
  const { to, bitrateKbps, maxWidth } = params;
  if (isAudio(to)) {
    const target = AUDIO[to];
    if (bitrateKbps !== undefined && bitrateKbps > 512) throw new ToolError("PARAMS_INVALID", `Invalid params: bitrateKbps: audio bitrates go up to 512 (got ${bitrateKbps})`);
    const kbps = target.defaultKbps === undefined ? undefined : (bitrateKbps ?? target.defaultKbps);
    return ["-map", "0:a:0", "-vn", "-sn", "-dn", ...target.codec, ...(kbps ? ["-b:a", `${kbps}k`] : []), "-f", target.muxer];
  }
  const common = ["-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn", "-vf", scaleFilter(maxWidth)];
  if (to === "mp4") {
    const rate = bitrateKbps ? ["-b:v", `${bitrateKbps}k`] : ["-crf", "23"];
    return [...common, "-c:v", "libx264", "-preset", "veryfast", ...rate, "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "-f", "mp4"];
  }
  // VP8: this core's VP9 encoder (libvpx-vp9) dies with "memory access out of bounds" on every
  // input (upstream ffmpeg.wasm issue 679), so WebM is VP8 + Vorbis.
  // A negative cpu-used fixes the realtime speed: a positive one lets libvpx adapt it to how long
  // frames take, so a busy machine encoded the same input to other bytes.
  const rate = bitrateKbps ? ["-b:v", `${bitrateKbps}k`] : ["-crf", "10", "-b:v", "1M"];
  return [...common, "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "-8", ...rate, "-c:a", "libvorbis", "-b:a", "128k", "-f", "webm"];
}

const EXT: Record<Target, string> = { mp3: "mp3", ogg: "ogg", opus: "opus", wav: "wav", flac: "flac", mp4: "mp4", webm: "webm" };

export const run: ToolRun<Params> = async ([input], params, ctx) => {
  const target = `output.${EXT[params.to]}`;
  const kind = isAudio(params.to) ? "audio" : "video";
  return withFfmpeg(ctx, async (ffmpeg) => {
    const files = await CoreFiles.stage(ffmpeg, input, ctx.outputDir);
    ctx.onProgress(0.02, "converting");
    // -fflags +bitexact: no version strings, no random stream ids/serials, so output is reproducible
    const args = ["-hide_banner", "-format_whitelist", DEMUXERS.audioOrVideo, "-i", files.source, ...encodeArgs(params), "-fflags", "+bitexact", files.target(target)];
    const result = await ffmpeg.exec(args, progressFromLog(ctx, 0.02, 0.98, "converting"));
    const noStream = result.log.find((l) => /Stream map '0:[av]:0' matches no streams/.test(l));
    if (noStream) throw new ToolError("INPUT_INVALID", `"${input.name}" has no ${kind} stream to convert to ${params.to.toUpperCase()}`);
    if (result.code !== 0) throw failure(input.name, result, "audio or video");
    const out = await files.take(target, `${stem(input.name)}.${EXT[params.to]}`, params.to as FormatId);
    if (!out) throw new ToolError("INPUT_INVALID", `"${input.name}": ffmpeg decoded no ${kind} from it`);
    return [out];
  });
};
