/**
 * A streaming tool's memory does not grow with its input: gis.convert (GeoJSON to GeoPackage; the
 * input is staged on disk and mounted into the engine, the output written to a mounted folder and
 * streamed to the store) on a 20 MB and then a 40 MB GeoJSON, through the API. The tool worker is
 * a thread of this process: its peak RSS is reset before each run (/proc/self/clear_refs) and read
 * after it (VmHWM). The 40 MB run may peak above the 20 MB one by far less than the 20 MB the input
 * grew; holding input and output in the engine's memory (what this replaced) cost about 14x that.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Job } from "@vektor/shared/schemas/job";
import { startTestServer, type TestServer } from "./harness";

const MB = 1024 * 1024;
const LINUX_PEAKS = existsSync("/proc/self/clear_refs");

let srv: TestServer;
beforeAll(async () => void (srv = await startTestServer({ TOOL_WORKERS: "1" })), 60_000);
afterAll(() => srv?.close());

/** A GeoJSON of points of about `mb` MB, written piece by piece (never one string of that size). */
async function pointsFile(path: string, mb: number): Promise<void> {
  const writer = Bun.file(path).writer();
  writer.write('{"type":"FeatureCollection","features":[\n');
  for (let i = 0, bytes = 0; bytes < mb * MB; i++) {
    const line = `${i ? ",\n" : ""}{"type":"Feature","properties":{"id":${i},"name":"point ${i}","v":${(i * 37) % 1000}},"geometry":{"type":"Point","coordinates":[${((i * 0.0137) % 360) - 180},${((i * 0.0071) % 160) - 80}]}}`;
    writer.write(line);
    bytes += line.length;
  }
  writer.write("\n]}\n");
  await writer.end();
}

function resetPeak(): void {
  writeFileSync("/proc/self/clear_refs", "5");
}

function peakBytes(): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))![1]) * 1024;
}

describe("memory of a streaming tool", () => {
  test.skipIf(!LINUX_PEAKS)("gis.convert: the peak grows far less than the input when the input doubles", async () => {
    const c = await srv.user();
    const upload = async (mb: number) => {
      const path = join(srv.dataDir, `points-${mb}.geojson`);
      await pointsFile(path, mb);
      return (await c.files.upload(Bun.file(path), { filename: `points-${mb}.geojson`, mime: "application/geo+json" })).fileId;
    };
    const [warm, small, big] = [await upload(0.1), await upload(20), await upload(40)];
    /** Runs the conversion; answers the process's peak RSS during it. */
    const peakOf = async (fileId: string) => {
      Bun.gc(true);
      resetPeak();
      const started = await c.t.call<Job>("POST", "/api/tools/gis.convert", { fileIds: [fileId], params: { to: "gpkg" } });
      const done = await c.jobs.wait(started);
      expect({ status: done.status, error: done.error }).toEqual({ status: "succeeded", error: null });
      expect(done.outputs[0].size).toBeGreaterThan(0);
      return peakBytes();
    };
    await peakOf(warm); // the engine loads once, outside the measured runs
    const [peak20, peak40] = [await peakOf(small), await peakOf(big)];
    const growth = 20 * MB;
    console.log(`peak RSS: 20 MB input ${Math.round(peak20 / MB)} MB, 40 MB input ${Math.round(peak40 / MB)} MB (+${Math.round((peak40 - peak20) / MB)} MB for +20 MB of input)`);
    expect((peak40 - peak20) / growth).toBeLessThan(1);
  }, 600_000);
});
