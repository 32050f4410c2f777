/** The intro's formats by family and the offline line, from the real registry's tools. */
import { listManifests } from "@vektor/wasm-tools";
import { describe, expect, test } from "vitest";
import { mergeTools } from "../../tools/catalog";
import { formatsByFamily } from "./formats-by-family";
import { offlineSummary } from "./OfflineFamilies";

const tools = mergeTools(listManifests(), undefined);

describe("the first visit's words", () => {
  test("every family, each with the formats its tools read, by human name, once", () => {
    const families = formatsByFamily(tools);
    expect(families.map((f) => f.family).sort()).toEqual([...new Set(tools.map((t) => t.family))].sort());
    const gis = families.find((f) => f.family === "gis")!;
    expect(gis.title).toBe("GIS");
    expect(gis.formats).toContain("GeoJSON");
    expect(gis.formats).toContain("Shapefile (ZIP)");
    for (const f of families) expect(new Set(f.formats).size).toBe(f.formats.length);
  });

  test("offline, in plain words", () => {
    expect(offlineSummary([])).toMatch(/^Works offline after first use/);
    expect(offlineSummary(["pdf", "gis"])).toBe("Works offline: PDF, GIS.");
  });
});
