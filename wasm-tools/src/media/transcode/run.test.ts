import { beforeAll, describe, expect, test } from "bun:test";
import { makeTextPdf } from "../../testing/pdf-fixtures";
import { expectToolError } from "../../testing/run-tool";
import { liveJobWorkers } from "../ffmpeg/session";
import { toneWav } from "../../testing/wav";
import { ffprobe, makeVideo, requireNativeFfmpeg, runMedia, type Probe } from "../test-support";
import { encodeArgs } from "./run";

const near = (value: string | undefined, expected: number, tolerance = 0.2) => {
  expect(Number(value)).toBeGreaterThan(expected - tolerance);
  expect(Number(value)).toBeLessThan(expected + tolerance);
};
const only = (probe: Probe, type: string) => probe.streams.filter((s) => s.codec_type === type);

let tone: Uint8Array;
let clip: Uint8Array;
beforeAll(async () => {
  requireNativeFfmpeg();
  tone = toneWav({ seconds: 3, rate: 44_100, channels: 2 });
  clip = await makeVideo({ seconds: 2, size: "160x120", rate: 10 });
}, 60_000);

describe("media.transcode", () => {
  test("WAV to each audio format: codec, duration, sample rate and channels as ffprobe sees them", async () => {
    const expected = {
      mp3: { codec: "mp3", rate: "44100", ext: "mp3", mime: "audio/mpeg" },
      ogg: { codec: "vorbis", rate: "44100", ext: "ogg", mime: "audio/ogg" },
      opus: { codec: "opus", rate: "48000", ext: "opus", mime: "audio/opus" }, // Opus always decodes at 48 kHz
      wav: { codec: "pcm_s16le", rate: "44100", ext: "wav", mime: "audio/wav" },
      flac: { codec: "flac", rate: "44100", ext: "flac", mime: "audio/flac" },
    };
    for (const [to, want] of Object.entries(expected)) {
      const [out] = await runMedia("media.transcode", [{ name: "tone.wav", bytes: tone }], { to });
      // WAV to WAV is named apart from its input (execute's rule).
      expect([out.name, out.mime]).toEqual([want.ext === "wav" ? "tone-transcode.wav" : `tone.${want.ext}`, want.mime]);
      const probe = ffprobe(out.bytes, out.name);
      const [audio] = only(probe, "audio");
      expect([audio.codec_name, audio.sample_rate, audio.channels], to).toEqual([want.codec, want.rate, 2]);
      near(probe.format.duration, 3);
    }
  }, 60_000);

  test("bitrateKbps sets the audio bitrate; progress comes from ffmpeg's log and ends at 1", async () => {
    const progress: number[] = [];
    const [out] = await runMedia("media.transcode", [{ name: "tone.wav", bytes: tone }], { to: "mp3", bitrateKbps: 96 }, { onProgress: (f) => progress.push(f) });
    const [audio] = only(ffprobe(out.bytes, out.name), "audio");
    expect(Number(audio.bit_rate)).toBe(96_000);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.some((p) => p > 0.5 && p < 1)).toBe(true); // the final time= line against Duration:
  }, 60_000);

  test("video to MP4 (H.264 + AAC) and WebM (VP8 + Vorbis), and scaled down with maxWidth", async () => {
    const cases = [
      { to: "mp4", params: {}, video: "h264", audio: "aac", size: [160, 120] },
      { to: "webm", params: {}, video: "vp8", audio: "vorbis", size: [160, 120] },
      { to: "mp4", params: { maxWidth: 80 }, video: "h264", audio: "aac", size: [80, 60] },
      { to: "webm", params: { maxWidth: 100, bitrateKbps: 200 }, video: "vp8", audio: "vorbis", size: [100, 76] },
    ];
    for (const c of cases) {
      const [out] = await runMedia("media.transcode", [{ name: "clip.mp4", bytes: clip }], { to: c.to, ...c.params });
      const probe = ffprobe(out.bytes, out.name);
      const [video] = only(probe, "video");
      const [audio] = only(probe, "audio");
      expect([video.codec_name, video.width, video.height, audio.codec_name], JSON.stringify(c)).toEqual([c.video, ...c.size, c.audio]);
      near(probe.format.duration, 2);
    }
  }, 60_000);

  test("a video's sound track to MP3; an audio-only input cannot become MP4", async () => {
    const [out] = await runMedia("media.transcode", [{ name: "clip.mp4", bytes: clip }], { to: "mp3" });
    const probe = ffprobe(out.bytes, out.name);
    expect(probe.streams.map((s) => s.codec_name)).toEqual(["mp3"]);
    near(probe.format.duration, 2);
    await expectToolError(runMedia("media.transcode", [{ name: "tone.wav", bytes: tone }], { to: "mp4" }), "INPUT_INVALID", /"tone\.wav" has no video stream/);
  }, 60_000);

  test("output is byte-identical across runs (fresh instances, -fflags +bitexact)", async () => {
    for (const [input, to] of [[{ name: "tone.wav", bytes: tone }, "ogg"], [{ name: "clip.mp4", bytes: clip }, "webm"], [{ name: "clip.mp4", bytes: clip }, "mp4"]] as const) {
      const [a] = await runMedia("media.transcode", [input], { to });
      const [b] = await runMedia("media.transcode", [input], { to });
      expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes)), to).toBe(true);
    }
  }, 60_000);

  test("random bytes, a PDF and plain text are INPUT_INVALID with ffmpeg's reason; a truncated WAV gives a shorter file", async () => {
    const random = new Uint8Array(8192).map((_, i) => (i * 2654435761) >>> 24);
    await expectToolError(runMedia("media.transcode", [{ name: "noise.wav", bytes: random }], { to: "mp3" }), "INPUT_INVALID", /"noise\.wav" could not be read as audio or video \(ffmpeg: Invalid data found/);
    await expectToolError(runMedia("media.transcode", [{ name: "doc.mp3", bytes: await makeTextPdf(1) }], { to: "wav" }), "INPUT_INVALID", /"doc\.mp3" could not be read/);
    const text = new TextEncoder().encode("Minutes of the meeting\n".repeat(50)); // ffmpeg's tty demuxer would render it as video
    await expectToolError(runMedia("media.transcode", [{ name: "notes.txt", bytes: text }], { to: "mp4" }), "INPUT_INVALID", /"notes\.txt" is not audio or video in a supported format \(ffmpeg detected "tty"\)/);
    const truncated = tone.slice(0, Math.floor(tone.length * 0.4)); // header still says 3 s
    const [out] = await runMedia("media.transcode", [{ name: "cut.wav", bytes: truncated }], { to: "mp3" });
    near(ffprobe(out.bytes, out.name).format.duration, 1.2);
  }, 60_000);

  test("an abort (or a host timeout) mid-transcode returns CANCELLED at once and ends the job worker", async () => {
    const long = toneWav({ seconds: 300, rate: 48_000, channels: 2 }); // ~58 MB: seconds of LAME work in WASM
    const controller = new AbortController();
    let abortedAt = 0;
    let progressAtAbort = 0;
    // Set in the progress callback: TypeScript cannot see that, so the type is spelled out where read.
    let first = null as { at: number; fraction: number } | null;
    const running = runMedia("media.transcode", [{ name: "long.wav", bytes: long }], { to: "mp3" }, {
      signal: controller.signal,
      onProgress: (fraction) => {
        if (fraction > 0 && !first) first = { at: performance.now(), fraction };
        if (!abortedAt && fraction > 0.02) {
          abortedAt = performance.now();
          progressAtAbort = fraction;
          controller.abort();
        }
      },
    });
    await expectToolError(running, "CANCELLED");
    expect(abortedAt).toBeGreaterThan(0); // progress was reported while ffmpeg was encoding
    expect(progressAtAbort).toBeLessThan(0.5);
    // "At once" against what is left of the encoding at the pace it went, so a slower machine
    // scales both sides: the stop must take under a quarter of it (and 300 ms always passes).
    const pace = first && abortedAt > first.at ? (progressAtAbort - first.fraction) / (abortedAt - first.at) : 0;
    expect(pace).toBeGreaterThan(0); // progress came twice or more before the abort
    const leftMs = (1 - progressAtAbort) / pace;
    expect(performance.now() - abortedAt).toBeLessThan(Math.max(300, leftMs / 4));
    expect(liveJobWorkers()).toBe(0);

    const started = performance.now();
    await expectToolError(runMedia("media.transcode", [{ name: "long.wav", bytes: long }], { to: "opus" }, { signal: AbortSignal.timeout(1500) }), "CANCELLED");
    expect(performance.now() - started).toBeLessThan(1500 + Math.max(1000, leftMs / 4));
    expect(liveJobWorkers()).toBe(0);
  }, 60_000);

  test("params: unknown targets, audio bitrates over 512 and tiny widths are PARAMS_INVALID; arguments are as documented", async () => {
    const input = [{ name: "tone.wav", bytes: tone }];
    await expectToolError(runMedia("media.transcode", input, { to: "avi" }), "PARAMS_INVALID", /to: Expected one of/);
    await expectToolError(runMedia("media.transcode", input, { to: "mp3", bitrateKbps: 900 }), "PARAMS_INVALID", /bitrateKbps/);
    await expectToolError(runMedia("media.transcode", input, { to: "mp4", maxWidth: 4 }), "PARAMS_INVALID", /maxWidth/);
    expect(encodeArgs({ to: "opus" })).toEqual(expect.arrayContaining(["libopus", "24000"]));
    expect(encodeArgs({ to: "mp4", maxWidth: 640 }).join(" ")).toContain("scale=trunc(min(iw\\,640)/2)*2:-2");
    expect(encodeArgs({ to: "wav", bitrateKbps: 64 })).not.toContain("-b:a");
  });
});
