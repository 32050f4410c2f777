/**
 * Media tools on host files (how the server's workers run them): the input's folder and the
 * output folder are mounted into the ffmpeg core (ffmpeg/host-fs.ts), so ffmpeg reads and writes
 * the host's disk; outputs come back by path. The same bytes as the in-memory path, the input
 * left as it was, and no host file left open, also after a cancelled run.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { hostInput, inHostFolder, openFilesIn } from "../testing/host-files";
import { expectToolError } from "../testing/run-tool";
import { toneWav } from "../testing/wav";
import { liveJobWorkers } from "./ffmpeg/session";
import { ffprobe, makeVideo, requireNativeFfmpeg, runMedia } from "./test-support";

const inFolder = (use: (dir: string, outputDir: string) => Promise<void>) => inHostFolder("media-host-", use);

describe("media tools on host files", () => {
  test("media.transcode reads the host file and writes into the output folder: the same bytes as in memory", async () => {
    requireNativeFfmpeg();
    const clip = await makeVideo({ seconds: 2, size: "160x120", rate: 10 });
    await inFolder(async (dir, outputDir) => {
      const input = hostInput(dir, "site clip.mp4", clip);
      for (const to of ["webm", "mp4"]) {
        const [out] = await runMedia("media.transcode", [input], { to }, { outputDir });
        expect({ name: out.name, bytes: out.bytes.length, inFolder: out.path?.startsWith(`${outputDir}/`) }, to).toEqual({ name: to === "webm" ? "site clip.webm" : "site clip-transcode.mp4", bytes: 0, inFolder: true });
        const written = new Uint8Array(readFileSync(out.path!));
        const probe = ffprobe(written, out.name);
        expect(probe.streams.map((s) => s.codec_name), to).toEqual(to === "webm" ? ["vp8", "vorbis"] : ["h264", "aac"]);
        const [inMemory] = await runMedia("media.transcode", [{ name: "site clip.mp4", bytes: clip }], { to });
        expect(Buffer.from(written).equals(Buffer.from(inMemory.bytes)), to).toBe(true);
      }
      expect(Buffer.from(readFileSync(input.path!)).equals(Buffer.from(clip))).toBe(true);
      expect(openFilesIn(dir)).toEqual([]);
    });
  }, 120_000);

  test("media.thumbnail takes its frame from the host file into the output folder", async () => {
    const clip = await makeVideo({ seconds: 2, size: "160x120", rate: 10 });
    await inFolder(async (dir, outputDir) => {
      const [out] = await runMedia("media.thumbnail", [hostInput(dir, "clip.mp4", clip)], { format: "png", width: 80 }, { outputDir });
      const png = new Uint8Array(readFileSync(out.path!));
      expect([out.name, out.mime, [...png.subarray(1, 4)]]).toEqual(["clip.png", "image/png", [0x50, 0x4e, 0x47]]);
      expect(new DataView(png.buffer).getUint32(16)).toBe(80); // IHDR width
    });
  }, 60_000);

  test("a cancelled run on host files leaves no file open; a host file that is not audio is INPUT_INVALID", async () => {
    await inFolder(async (dir, outputDir) => {
      const long = hostInput(dir, "long.wav", toneWav({ seconds: 300, rate: 48_000, channels: 2 }));
      await expectToolError(runMedia("media.transcode", [long], { to: "mp3" }, { outputDir, signal: AbortSignal.timeout(1500) }), "CANCELLED");
      expect(liveJobWorkers()).toBe(0);
      expect(openFilesIn(dir)).toEqual([]);
      const text = hostInput(dir, "notes.wav", new TextEncoder().encode("not a recording\n".repeat(100)));
      await expectToolError(runMedia("media.transcode", [text], { to: "mp3" }, { outputDir }), "INPUT_INVALID", /"notes\.wav" could not be read as audio or video/);
    });
  }, 60_000);
});
