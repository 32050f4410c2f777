/** media.transcode: audio -> MP3/Ogg Vorbis/Opus/WAV/FLAC, video -> MP4 (H.264 + AAC) or WebM (VP8 + Vorbis), with ffmpeg. */
import { Type, type Static } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const AUDIO_TARGETS = ["mp3", "ogg", "opus", "wav", "flac"] as const;
export const VIDEO_TARGETS = ["mp4", "webm"] as const;

export const params = Type.Object(
  {
    to: Type.Union([...AUDIO_TARGETS, ...VIDEO_TARGETS].map((f) => Type.Literal(f)), {
      default: "mp3",
      description: "Target format: mp3, ogg (Vorbis), opus, wav (16-bit PCM), flac (audio only; video inputs give their first audio track), or mp4 (H.264/AAC), webm (VP8/Vorbis)",
    }),
    bitrateKbps: Type.Optional(
      Type.Integer({
        minimum: 8,
        maximum: 20_000,
        description: "Target bitrate in kbit/s: of the audio for audio targets (8..512; default mp3 192, ogg 160, opus 96; ignored for wav and flac), of the video for mp4/webm (default: constant quality)",
      }),
    ),
    maxWidth: Type.Optional(Type.Integer({ minimum: 16, maximum: 7680, description: "Video only: scale down (keeping the aspect ratio) to at most this many pixels wide" })),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "media.transcode",
  family: "media",
  title: "Convert audio or video",
  description: "Converts audio to MP3, Ogg Vorbis, Opus, WAV or FLAC, and video to MP4 (H.264 with AAC audio) or WebM (VP8 with Vorbis audio), optionally scaling video down and setting the bitrate. Runs ffmpeg compiled to WebAssembly.",
  io: { accepts: ["wav", "mp3", "ogg", "opus", "flac", "mp4", "webm"], produces: ["mp3", "ogg", "opus", "wav", "flac", "mp4", "webm"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // On the server ffmpeg reads the input from and writes the output to host files (ffmpeg/host-fs.ts):
  // the worker's added peak stays at the core's own ~200 MB for a 13 MB and a 95 MB 720p MP4 to
  // WebM, so the size limit is the server's (TOOL_MAX_INPUT_MB) and the time a run may take. In the
  // browser the picked File is mounted (WORKERFS) and read a piece at a time; the output is built
  // in the core's memory: the renderer's peak grew 0.5 bytes per input byte from a 48 to a 150 MB
  // WAV to MP3 (e2e/media-stream.e2e.ts). Given whole bytes instead, the core copies them: 2.9.
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024, timeoutMs: 15 * 60_000, memoryPerInputByte: 0.5 },
} satisfies ToolManifest;
