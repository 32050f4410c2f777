/** This device's memory budget and a tool's need (memory.ts), with the registry's measured figures. */
import { listManifests } from "@vektor/wasm-tools";
import { describe, expect, test } from "vitest";
import { deviceMemoryBudget, ENGINE_BYTES, memoryNeed, memoryProblem } from "./memory";

const MB = 1024 * 1024;
const GB = 1024 * MB;

describe("deviceMemoryBudget", () => {
  test("half of what the browser reports, at most 4 GB; 1 GB when it reports nothing", () => {
    expect(deviceMemoryBudget(2)).toBe(1 * GB);
    expect(deviceMemoryBudget(4)).toBe(2 * GB);
    expect(deviceMemoryBudget(8)).toBe(4 * GB);
    expect(deviceMemoryBudget(32)).toBe(4 * GB);
    expect(deviceMemoryBudget(0.5)).toBe(256 * MB);
    for (const unknown of [undefined, 0, Number.NaN]) expect(deviceMemoryBudget(unknown)).toBe(1 * GB);
  });
});

describe("memoryNeed and memoryProblem", () => {
  const gis = { title: "Convert GIS vector data", family: "gis", memoryPerInputByte: 2 };

  test("the engine's fixed size plus the file times the figure; unknown without a figure", () => {
    expect(memoryNeed(gis, 100 * MB)).toBe(ENGINE_BYTES.gis! + 200 * MB);
    expect(memoryNeed({ ...gis, family: "new-family" }, 0)).toBeGreaterThan(0);
    expect(memoryNeed({ ...gis, memoryPerInputByte: undefined }, 100 * MB)).toBeNull();
  });

  test("says the need and the budget in plain words when it does not fit", () => {
    const need = memoryNeed(gis, 500 * MB)!;
    expect(memoryProblem(gis, 500 * MB, need)).toBeNull();
    expect(memoryProblem(gis, 500 * MB, 1 * GB)).toBe("Convert GIS vector data on this 500 MB file needs about 1.2 GB of memory, more than this device can give a tab (about 1 GB).");
  });

  test("every tool of the families measured so far states its figure", () => {
    const measured = ["gis", "pdf", "cad", "bim", "pcb", "drawing", "mesh"];
    const missing = listManifests().filter((m) => measured.includes(m.family) && m.limits?.memoryPerInputByte === undefined).map((m) => m.slug);
    expect(missing).toEqual([]);
  });
});
