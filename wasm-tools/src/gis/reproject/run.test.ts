import { describe, expect, test } from "bun:test";
import { unzipSync } from "fflate";
import { expectToolError } from "../../testing/run-tool";
import { nativeRaster, nativeTransform, nativeVector, wktEpsg } from "../testing/cli";
import { CSV_XY, featureCollection, makeGeoTiff, SAMPLE_FEATURES, webMercator } from "../testing/fixtures";
import { inputOf, runGis } from "../testing/run";

const sample = (name = "sample.geojson") => inputOf(name, featureCollection());
const reproject = (input: ReturnType<typeof inputOf>, params: Record<string, unknown>) => runGis("gis.reproject", input, params);

/** Every vertex of a GeoJSON geometry's coordinates, flattened to [x, y] pairs. */
function vertices(coordinates: unknown): [number, number][] {
  if (Array.isArray(coordinates) && typeof coordinates[0] === "number") return [coordinates as [number, number]];
  return (coordinates as unknown[]).flatMap(vertices);
}

describe("gis.reproject", () => {
  test("GeoJSON from EPSG:4326 to Web Mercator: every vertex moves where the formula says, the CRS is recorded", async () => {
    const [out] = await reproject(sample(), { to: 3857 });
    expect(out.name).toBe("sample-epsg3857.geojson");
    expect(out.mime).toBe("application/geo+json");
    const [layer] = nativeVector(out.name, out.bytes);
    expect([layer.featureCount, layer.epsg]).toEqual([7, 3857]);
    const [x, y] = layer.features[0].geometry?.coordinates as number[];
    expect(x).toBeCloseTo(1113194.9, 1);
    expect(y).toBeCloseTo(6446275.8, 1);
    SAMPLE_FEATURES.forEach((feature, i) => {
      const got = vertices(layer.features[i].geometry?.coordinates);
      const want = vertices(feature.geometry?.coordinates).map(([lon, lat]) => webMercator(lon, lat));
      expect(got.length).toBe(want.length);
      got.forEach(([gx, gy], k) => {
        expect(Math.abs(gx - want[k][0])).toBeLessThan(1e-3);
        expect(Math.abs(gy - want[k][1])).toBeLessThan(1e-3);
      });
    });
    expect(layer.features[1].properties).toMatchObject({ name: "Zürich", rank: 2 });
  }, 60_000);

  test("GeoPackage to ETRS89 / UTM 32N (EPSG:25832) agrees with native gdaltransform", async () => {
    const [gpkg] = await runGis("gis.convert", sample(), { to: "gpkg" });
    const [out] = await reproject(inputOf("sample.gpkg", gpkg.bytes), { to: 25832 });
    expect(out.name).toBe("sample-epsg25832.gpkg");
    const [layer] = nativeVector(out.name, out.bytes);
    expect([layer.featureCount, layer.epsg]).toEqual([7, 25832]);
    const points = SAMPLE_FEATURES.slice(0, 2).map((f) => f.geometry?.coordinates as [number, number]);
    const expected = nativeTransform(points, 4326, 25832);
    expect(expected[0][0]).toBeCloseTo(571666.4, 0);
    for (let i = 0; i < points.length; i++) {
      const [gx, gy] = layer.features[i].geometry?.coordinates as number[];
      expect(Math.abs(gx - expected[i][0])).toBeLessThan(0.01);
      expect(Math.abs(gy - expected[i][1])).toBeLessThan(0.01);
    }
  }, 60_000);

  test("a shapefile ZIP stays a shapefile ZIP, with the new .prj", async () => {
    const [zip] = await runGis("gis.convert", sample(), { to: "shapefile-zip" });
    const [out] = await reproject(inputOf("sample.zip", zip.bytes), { to: 3857 });
    expect(out.name).toBe("sample-epsg3857.zip");
    const prj = new TextDecoder().decode(unzipSync(out.bytes)["sample_points.prj"]);
    expect(prj).toMatch(/^PROJCS\["WGS_1984_Web_Mercator_Auxiliary_Sphere"/); // ESRI's name for EPSG:3857
    const points = nativeVector(out.name, out.bytes).find((l) => l.name === "sample_points");
    expect(points?.epsg).toBe(3857);
    const [x, y] = points?.features[0].geometry?.coordinates as number[];
    expect([Math.round(x * 10) / 10, Math.round(y * 10) / 10]).toEqual([1113194.9, 6446275.8]);
  }, 60_000);

  test("CSV has no CRS: `from` is required, and x/y columns stay x/y columns", async () => {
    await expectToolError(reproject(inputOf("places.csv", CSV_XY), { to: 3857 }), "PARAMS_INVALID", /"places\.csv" has no coordinate reference system.*from/);
    const [out] = await reproject(inputOf("places.csv", CSV_XY), { to: 3857, from: 4326 });
    expect(out.name).toBe("places-epsg3857.csv");
    const lines = new TextDecoder().decode(out.bytes).trim().split(/\r?\n/);
    expect(lines[0]).toBe("X,Y,name,count");
    const [x, y] = lines[1].split(",").map(Number);
    expect(x).toBeCloseTo(1113194.9, 1);
    expect(y).toBeCloseTo(6446275.8, 1);
  }, 60_000);

  test("`from` overrides a source CRS", async () => {
    // The same numbers read as Web Mercator metres instead of degrees: back to lon/lat they are tiny.
    const [out] = await reproject(sample(), { to: 4326, from: 3857 });
    const [layer] = nativeVector(out.name, out.bytes);
    const [lon, lat] = layer.features[0].geometry?.coordinates as number[];
    expect(lon).toBeCloseTo((10 / 6378137) * (180 / Math.PI), 9);
    expect(Math.abs(lat)).toBeLessThan(0.001);
  }, 60_000);

  test("a GeoTIFF is warped with gdalwarp: new CRS, transformed corners, same bands", async () => {
    const tif = await makeGeoTiff({ width: 60, height: 40, origin: [10, 50], cell: 0.01 });
    const [out] = await reproject(inputOf("grid.tif", tif), { to: 3857, resampling: "bilinear" });
    expect(out.name).toBe("grid-epsg3857.tif");
    expect(out.mime).toBe("image/tiff");
    const info = nativeRaster(out.name, out.bytes);
    expect(info.driverShortName).toBe("GTiff");
    expect(wktEpsg(info.coordinateSystem?.wkt)).toBe(3857);
    expect(info.bands.map((b) => b.type)).toEqual(["Byte"]);
    const [ulx, uly] = webMercator(10, 50.4);
    expect(Math.abs((info.geoTransform?.[0] ?? 0) - ulx)).toBeLessThan(1);
    expect(Math.abs((info.geoTransform?.[3] ?? 0) - uly)).toBeLessThan(1);
    const [lrx] = webMercator(10.6, 50);
    const width = info.size[0] * (info.geoTransform?.[1] ?? 0);
    expect(Math.abs(info.geoTransform![0] + width - lrx)).toBeLessThan(info.geoTransform![1] * 1.01);

    const bare = await makeGeoTiff({ width: 8, height: 8, epsg: null });
    await expectToolError(reproject(inputOf("bare.tif", bare), { to: 3857 }), "PARAMS_INVALID", /"bare\.tif" has no coordinate reference system/);
    const [fixed] = await reproject(inputOf("bare.tif", bare), { to: 3857, from: 4326 });
    expect(wktEpsg(nativeRaster(fixed.name, fixed.bytes).coordinateSystem?.wkt)).toBe(3857);
  }, 60_000);

  test("outputs are the same bytes on every run", async () => {
    const [a] = await reproject(sample(), { to: 25832 });
    const [b] = await reproject(sample(), { to: 25832 });
    expect(Bun.hash(a.bytes)).toBe(Bun.hash(b.bytes));
  }, 60_000);

  test("rejects unknown and non-horizontal EPSG codes, KML, wrong files and empty data", async () => {
    await expectToolError(reproject(sample(), { to: 99999 }), "PARAMS_INVALID", /to: EPSG:99999 is not a coordinate reference system/);
    await expectToolError(reproject(sample(), { to: 3857, from: 123456 }), "PARAMS_INVALID", /from: EPSG:123456 is not/);
    await expectToolError(reproject(sample(), { to: 5703 }), "PARAMS_INVALID", /EPSG:5703 \(NAVD88 height\) is a vertical/);
    await expectToolError(reproject(sample(), { to: 4978 }), "PARAMS_INVALID", /geocentric/);
    await expectToolError(reproject(sample(), { to: "3857" }), "PARAMS_INVALID", /to/);
    await expectToolError(reproject(sample(), { to: 3857.5 }), "PARAMS_INVALID", /to/);
    await expectToolError(reproject(sample(), { to: 12 }), "PARAMS_INVALID", /to/);
    const [kml] = await runGis("gis.convert", sample(), { to: "kml" });
    await expectToolError(reproject(inputOf("sample.kml", kml.bytes), { to: 3857 }), "INPUT_INVALID", /KML, which gis\.reproject does not take/);
    await expectToolError(reproject(inputOf("map.geojson", "%PDF-1.4\n%%EOF\n"), { to: 3857 }), "INPUT_INVALID", /is a PDF document/);
    await expectToolError(reproject(inputOf("none.geojson", '{"type":"FeatureCollection","features":[]}'), { to: 3857 }), "INPUT_EMPTY", /contains no features/);
  }, 60_000);
});
