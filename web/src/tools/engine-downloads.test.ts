/** The engine downloads' sums (engine-downloads.ts). */
import { describe, expect, test } from "vitest";
import type { EngineDownload } from "../workers/downloads";
import { sumDownloads } from "./engine-downloads";

const d = (name: string, loaded: number, total: number | null, wire: number | null, done: boolean): EngineDownload => ({ type: "engine-download", name, loaded, total, wire, done });

describe("sumDownloads", () => {
  test("sizes add up when every one is known; done when every one is", () => {
    expect(sumDownloads([d("gdal", 10, 28, 8, true), d("gdal-data", 2, 11, 2, false)])).toEqual({ loaded: 12, total: 39, wire: 10, done: false });
    expect(sumDownloads([d("gdal", 10, null, 8, true), d("gdal-data", 11, 11, null, true)])).toEqual({ loaded: 21, total: null, wire: null, done: true });
  });
});
