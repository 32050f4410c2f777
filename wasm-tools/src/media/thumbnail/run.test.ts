import { beforeAll, describe, expect, test } from "bun:test";
import { expectToolError } from "../../testing/run-tool";
import { toneWav } from "../../testing/wav";
import { ffprobe, makeVideo, meanAbsDiff, nativeRgb, requireNativeFfmpeg, runMedia } from "../test-support";
import { defaultTime } from "./run";

let clip: Uint8Array;
let webm: Uint8Array;
beforeAll(async () => {
  requireNativeFfmpeg();
  clip = await makeVideo({ seconds: 2, size: "160x120", rate: 10 });
  webm = await makeVideo({ seconds: 2, size: "160x120", rate: 10, format: "webm" });
}, 60_000);

describe("media.thumbnail", () => {
  test("PNG at a given time is the same picture native ffmpeg decodes at that time", async () => {
    const [out] = await runMedia("media.thumbnail", [{ name: "clip.mp4", bytes: clip }], { atSeconds: 1.2 });
    expect([out.name, out.mime]).toEqual(["clip.png", "image/png"]);
    const [stream] = ffprobe(out.bytes, out.name).streams;
    expect([stream.codec_name, stream.width, stream.height]).toEqual(["png", 160, 120]);
    const ours = nativeRgb(out.bytes, "frame.png");
    const reference = nativeRgb(clip, "clip.mp4", { seek: 1.2 });
    expect(meanAbsDiff(ours, reference)).toBeLessThan(1);
    const otherFrame = nativeRgb(clip, "clip.mp4", { seek: 0.3 });
    expect(meanAbsDiff(ours, otherFrame)).toBeGreaterThan(1); // testsrc moves: a wrong time would show
  }, 60_000);

  test("JPEG at a width from a WebM, at the default time (10% into a short video)", async () => {
    expect(defaultTime(2)).toBeCloseTo(0.2);
    expect(defaultTime(60)).toBe(1);
    expect(defaultTime(undefined)).toBe(1);
    const [out] = await runMedia("media.thumbnail", [{ name: "clip.webm", bytes: webm }], { format: "jpeg", width: 80 });
    expect([out.name, out.mime]).toEqual(["clip.jpg", "image/jpeg"]);
    const [stream] = ffprobe(out.bytes, out.name).streams;
    expect([stream.codec_name, stream.width, stream.height]).toEqual(["mjpeg", 80, 60]);
    const ours = nativeRgb(out.bytes, "frame.jpg");
    const reference = nativeRgb(webm, "clip.webm", { seek: 0.2, vf: "scale=80:-2" });
    expect(meanAbsDiff(ours, reference)).toBeLessThan(8); // JPEG at q 3 and two scalers: close, not equal
    expect(meanAbsDiff(ours, nativeRgb(webm, "clip.webm", { seek: 1.5, vf: "scale=80:-2" }))).toBeGreaterThan(meanAbsDiff(ours, reference));
  }, 60_000);

  test("deterministic: the same frame twice is byte-identical", async () => {
    const [a] = await runMedia("media.thumbnail", [{ name: "clip.mp4", bytes: clip }], { atSeconds: 0.5 });
    const [b] = await runMedia("media.thumbnail", [{ name: "clip.mp4", bytes: clip }], { atSeconds: 0.5 });
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  }, 60_000);

  test("rejects a time past the end, audio-only files and non-media bytes clearly", async () => {
    await expectToolError(runMedia("media.thumbnail", [{ name: "clip.mp4", bytes: clip }], { atSeconds: 5 }), "PARAMS_INVALID", /atSeconds: 5 s is past the end of the video \(2\.00 s\)/);
    const random = new Uint8Array(8192).map((_, i) => (i * 2654435761) >>> 24);
    await expectToolError(runMedia("media.thumbnail", [{ name: "x.mp4", bytes: random }]), "INPUT_INVALID", /"x\.mp4" could not be read as a video \(ffmpeg: moov atom not found; Invalid data found/);
    const text = new TextEncoder().encode("Minutes of the meeting\n".repeat(50));
    await expectToolError(runMedia("media.thumbnail", [{ name: "notes.txt", bytes: text }]), "INPUT_INVALID", /"notes\.txt" is not a video in a supported format \(ffmpeg detected "tty"\)/);
    await expectToolError(runMedia("media.thumbnail", [{ name: "tone.wav", bytes: toneWav({ seconds: 1, channels: 2 }) }]), "INPUT_INVALID", /"tone\.wav" is not a video in a supported format \(ffmpeg detected "wav"\)/);
    await expectToolError(runMedia("media.thumbnail", [{ name: "clip.mp4", bytes: clip }], { format: "gif" }), "PARAMS_INVALID", /format/);
  }, 60_000);
});
