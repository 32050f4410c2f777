/**
 * A GIS file streamed into the engine in the browser (issue 27): Convert on this device gives the
 * tool worker the picked File itself (ToolInput.blob, with its first bytes), and gis.convert mounts
 * it with Emscripten's WORKERFS and reads it a piece at a time, instead of the page reading the
 * whole file and the engine copying it into its memory. In Debian's Chromium against the real
 * server, signed out: a GeoJSON of E2E_GIS_STREAM_MB (default 48) MB of points made in code,
 * described by gis.info (every feature counted) and converted to CSV (every feature in the download). The renderer's peak memory before and after the
 * run is printed for the record (never asserted: a CI machine differs).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { writePointsGeojson } from "../wasm-tools/src/gis/testing/big-geojson";
import { closeDevicePage, openDevicePage, type DevicePage } from "./support/device-page";
import { makeGeoJson } from "./support/inputs";
import { downloadResults, rendererMemory, runOnDevice } from "./support/web";

const SIZE_MB = Number(process.env.E2E_GIS_STREAM_MB ?? 48);
const dir = mkdtempSync(join(tmpdir(), "gis-stream-e2e-"));
let opened: Partial<DevicePage> = {};
let browser: Browser;
let page: Page;

/** How many features a points GeoJSON holds: one `{"type":"Feature"` each. */
function featureCount(path: string): number {
  const text = readFileSync(path);
  const needle = Buffer.from('{"type":"Feature"');
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

beforeAll(async () => void ({ browser, page } = opened = await openDevicePage()), 120_000);

afterAll(async () => {
  await closeDevicePage(opened);
  rmSync(dir, { recursive: true, force: true });
});

describe("a GIS file streamed into the engine in the browser", () => {
  test(`gis.info and gis.convert read a ${SIZE_MB} MB GeoJSON through WORKERFS on this device: every feature counted, every feature in the CSV`, async () => {
    // The engine loaded first on a small file, so the big runs' memory is the file's alone.
    const small = join(dir, "small.geojson");
    await Bun.write(small, makeGeoJson());
    await runOnDevice(page, small, "gis.convert", { to: "csv" });
    const tools = page.workers().find((w) => w.url().includes("tool"));
    expect(tools).toBeDefined();
    // What WORKERFS needs: a dedicated worker with FileReaderSync (the engine's mount reads through it).
    expect(await tools!.evaluate(() => typeof FileReaderSync)).toBe("function");
    const big = await writePointsGeojson(join(dir, "points.geojson"), SIZE_MB);
    const count = featureCount(big);
    const record = [`${(statSync(big).size / 2 ** 20).toFixed(1)} MB GeoJSON, ${count} points; renderer memory at first: ${await rendererMemory(browser)}`];

    // gis.info writes a few lines: what it holds is what reading the input costs.
    let started = performance.now();
    await runOnDevice(page, big, "gis.info", {});
    record.push(`after gis.info (${((performance.now() - started) / 1000).toFixed(1)} s): ${await rendererMemory(browser)}`);
    const [report] = await downloadResults(page);
    const info = JSON.parse(new TextDecoder().decode(report!.bytes)) as { layers: { featureCount: number }[] };
    expect(info.layers.map((l) => l.featureCount)).toEqual([count]);

    started = performance.now();
    await runOnDevice(page, big, "gis.convert", { to: "csv" });
    record.push(`after gis.convert to CSV (${((performance.now() - started) / 1000).toFixed(1)} s): ${await rendererMemory(browser)}`);
    console.log(`[gis-stream] ${record.join("\n  ")}`);
    const [out] = await downloadResults(page);
    expect(out!.name).toBe("points.csv");
    const lines = new TextDecoder().decode(out!.bytes).trimEnd().split("\n");
    expect(lines.length).toBe(count + 1);
    expect(lines[0]).toContain("name");
    expect(lines[1]).toContain("point 0");
    expect(lines.at(-1)).toContain(`point ${count - 1}`);
  }, 900_000);
});
