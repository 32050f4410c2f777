import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { text } from "../../testing/run-tool";
import { countBy, drawingFixture, DWG_FIXTURES, DXF_FIXTURES, ogrFeatures, runDrawing } from "../test-support";

const SLOW = 120_000;

interface Collection {
  type: string;
  features: { type: string; properties: { layer: string; entity: string; text: string | null }; geometry: { type: string } }[];
}

async function geojsonOf(name: string, params: Record<string, unknown> = {}): Promise<Collection> {
  const [out] = await runDrawing("drawing.to-geojson", [drawingFixture(name)], params);
  expect(out.mime).toBe("application/geo+json");
  return JSON.parse(text(out)) as Collection;
}

describe("drawing.to-geojson", () => {
  test.each(DXF_FIXTURES)("%s: the layers ogr2ogr lists, feature counts per layer within 10 %%", async (name) => {
    const ours = countBy((await geojsonOf(name)).features, (f) => f.properties.layer);
    const theirs = countBy(ogrFeatures(name), (f) => f.properties.Layer!);
    expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
    for (const [layer, count] of Object.entries(theirs)) {
      expect([layer, Math.abs(ours[layer] - count) <= Math.max(1, count * 0.1)]).toEqual([layer, true]);
    }
  }, 120_000);

  test.each(DWG_FIXTURES.map(([name]) => name))("%s: a FeatureCollection of valid geometries", async (name) => {
    const collection = await geojsonOf(name);
    expect(collection.type).toBe("FeatureCollection");
    expect(collection.features.length).toBeGreaterThan(0);
    for (const f of collection.features) {
      expect(["Point", "LineString", "MultiLineString", "Polygon", "GeometryCollection"]).toContain(f.geometry.type);
      expect(typeof f.properties.layer).toBe("string");
    }
  }, SLOW);

  test("text becomes points carrying their text; layers filters", async () => {
    const all = await geojsonOf("example_2018.dwg");
    const simple = all.features.find((f) => f.properties.text === "teksto simpla");
    expect(simple).toMatchObject({ properties: { entity: "TEXT", layer: "Tavolo 3" }, geometry: { type: "Point" } });
    const only = await geojsonOf("example_2018.dwg", { layers: ["Tavolo 2"] });
    expect(new Set(only.features.map((f) => f.properties.layer))).toEqual(new Set(["Tavolo 2"]));
  }, SLOW);
});
