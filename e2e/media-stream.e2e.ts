/**
 * Media streamed into ffmpeg in the browser (issue 27): Convert on this device gives the tool
 * worker the picked File itself (ToolInput.blob), and the media tools mount it into ffmpeg's core
 * with WORKERFS and read it a piece at a time, instead of the core holding a copy of the whole
 * file. In Debian's Chromium against the real server, signed out: a WAV of E2E_MEDIA_STREAM_MB
 * (default 48) MB made in code to MP3 (its whole length in the download, as ffprobe reads it), and
 * a thumbnail of a video. The renderer's peak memory is printed for the record (never asserted).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { toneWav } from "../wasm-tools/src/testing/wav";
import { closeDevicePage, openDevicePage, type DevicePage } from "./support/device-page";
import { downloadResults, rendererMemory, runOnDevice } from "./support/web";

const SIZE_MB = Number(process.env.E2E_MEDIA_STREAM_MB ?? 48);
/** 16-bit stereo at 44.1 kHz. */
const WAV_BYTES_PER_SECOND = 176_400;
const dir = mkdtempSync(join(tmpdir(), "media-stream-e2e-"));
let opened: Partial<DevicePage> = {};
let browser: Browser;
let page: Page;

beforeAll(async () => void ({ browser, page } = opened = await openDevicePage()), 120_000);

afterAll(async () => {
  await closeDevicePage(opened);
  rmSync(dir, { recursive: true, force: true });
});

/** ffprobe's duration of a download, in seconds. */
function duration(bytes: Uint8Array, name: string): number {
  const path = join(dir, `probe-${name}`);
  writeFileSync(path, bytes);
  const probe = Bun.spawnSync(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]);
  return Number(probe.stdout.toString().trim());
}

describe("media streamed into ffmpeg in the browser", () => {
  test(`media.transcode reads a ${SIZE_MB} MB WAV through WORKERFS on this device; media.thumbnail a video`, async () => {
    const small = join(dir, "small.wav");
    writeFileSync(small, toneWav({ seconds: 1 }));
    await runOnDevice(page, small, "media.transcode", { to: "mp3" }); // the core compiles once, outside the measured run
    const tools = page.workers().find((w) => w.url().includes("tool"));
    expect(await tools!.evaluate(() => typeof FileReaderSync)).toBe("function");

    const seconds = Math.round((SIZE_MB * 2 ** 20) / WAV_BYTES_PER_SECOND);
    const big = join(dir, "survey.wav");
    writeFileSync(big, toneWav({ seconds, rate: 44_100, channels: 2 }));
    const before = await rendererMemory(browser);
    const started = performance.now();
    await runOnDevice(page, big, "media.transcode", { to: "mp3", bitrateKbps: 64 });
    console.log(`[media-stream] ${SIZE_MB} MB WAV to MP3 in ${((performance.now() - started) / 1000).toFixed(1)} s; renderer peaks before ${before}, after ${await rendererMemory(browser)}`);
    const [mp3] = await downloadResults(page);
    expect(mp3!.name).toBe("survey.mp3");
    expect(Math.abs(duration(mp3!.bytes, mp3!.name) - seconds)).toBeLessThan(0.5);

    const video = join(dir, "site.mp4");
    const made = Bun.spawnSync(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10:duration=4", "-c:v", "libx264", "-pix_fmt", "yuv420p", video]);
    expect(made.exitCode).toBe(0);
    await runOnDevice(page, video, "media.thumbnail", { format: "png", width: 160 });
    const [png] = await downloadResults(page);
    expect([png!.name, [...png!.bytes.subarray(1, 4)], new DataView(png!.bytes.buffer).getUint32(16)]).toEqual(["site.png", [0x50, 0x4e, 0x47], 160]);
  }, 900_000);
});
