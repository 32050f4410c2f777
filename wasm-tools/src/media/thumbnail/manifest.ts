/** media.thumbnail: one frame of a video as PNG or JPEG, with ffmpeg. */
import { Type, type Static } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object(
  {
    atSeconds: Type.Optional(
      Type.Number({ minimum: 0, maximum: 86_400, description: "Time of the frame in seconds (default: 1 s, or 10% into videos shorter than 10 s)" }),
    ),
    width: Type.Optional(Type.Integer({ minimum: 16, maximum: 7680, description: "Width of the image in pixels, height following the aspect ratio (default: the video's own size)" })),
    format: Type.Union([Type.Literal("png"), Type.Literal("jpeg")], { default: "png", description: "Image format" }),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "media.thumbnail",
  family: "media",
  title: "Video thumbnail",
  description: "Takes one frame of a video as a PNG or JPEG image, at a chosen time and width. Runs ffmpeg compiled to WebAssembly.",
  io: { accepts: ["mp4", "webm", "ogg"], produces: ["png", "jpeg"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // The video is read only as far as the frame, from its host file on the server
  // (ffmpeg/host-fs.ts) or the picked File mounted in the browser (WORKERFS), so memory does not
  // grow with it; stated as media.transcode's measured figure, which reads the whole input.
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024, timeoutMs: 120_000, memoryPerInputByte: 0.5 },
} satisfies ToolManifest;
