import { describe, expect, test } from "bun:test";
import type { ToolOutput } from "@vektor/shared/tools/manifest";
import { expectToolError } from "../../testing/run-tool";
import { nativeRaster, nativeVector, wktEpsg } from "../testing/cli";
import { CSV_XY, featureCollection, makeGeoTiff, makeTwoLayerGpkg } from "../testing/fixtures";
import { inputOf, runGis } from "../testing/run";

interface VectorReport {
  kind: string;
  format: string;
  driver: string;
  layerCount: number;
  featureCount: number;
  layers: {
    name: string;
    featureCount: number;
    geometryType: string | null;
    geometryTypes: string[];
    geometryColumn: string | null;
    fields: { name: string; type: string }[];
    extent: { minX: number; minY: number; maxX: number; maxY: number } | null;
    crs: { epsg: number | null; name: string | null; wkt: string } | null;
  }[];
}

const report = <T>([out]: ToolOutput[]) => JSON.parse(new TextDecoder().decode(out.bytes)) as T;
const info = (name: string, bytes: Uint8Array | string) => runGis("gis.info", inputOf(name, bytes));

describe("gis.info", () => {
  test("GeoJSON: driver, features, geometry types present, fields, extent and CRS, as native ogrinfo sees them", async () => {
    const outputs = await info("sample.geojson", featureCollection());
    expect([outputs[0].name, outputs[0].mime]).toEqual(["sample-info.json", "application/json"]);
    const r = report<VectorReport>(outputs);
    const [native] = nativeVector("sample.geojson", featureCollection());
    expect({ kind: r.kind, format: r.format, driver: r.driver, layerCount: r.layerCount, featureCount: r.featureCount }).toEqual({
      kind: "vector",
      format: "geojson",
      driver: "GeoJSON",
      layerCount: 1,
      featureCount: native.featureCount,
    });
    const [layer] = r.layers;
    expect(layer.name).toBe(native.name);
    expect(layer.geometryTypes).toEqual(["LineString", "Point", "Polygon"]);
    expect(Object.fromEntries(layer.fields.map((f) => [f.name, f.type]))).toEqual(native.fields);
    expect(layer.extent).toEqual({ minX: native.extent![0], minY: native.extent![1], maxX: native.extent![2], maxY: native.extent![3] });
    expect(layer.extent).toEqual({ minX: 0, minY: 0, maxX: 12, maxY: 51.1 });
    expect(layer.crs?.epsg).toBe(4326);
    expect(layer.crs?.name).toBe("WGS 84");
  }, 60_000);

  test("GeoPackage with two layers, a shapefile ZIP and a CSV without CRS", async () => {
    const two = report<VectorReport>(await info("two.gpkg", await makeTwoLayerGpkg()));
    expect(two.driver).toBe("GPKG");
    expect(two.layers.map((l) => [l.name, l.featureCount, l.geometryType, l.geometryTypes, l.geometryColumn, l.crs?.epsg])).toEqual([
      ["places", 3, "Point", ["Point"], "geom", 4326],
      ["areas", 2, "Polygon", ["Polygon"], "geom", 4326],
    ]);
    expect(two.featureCount).toBe(5);

    const [shpZip] = await runGis("gis.convert", inputOf("sample.geojson", featureCollection()), { to: "shapefile-zip" });
    const shapes = report<VectorReport>(await info("sample.zip", shpZip.bytes));
    expect([shapes.format, shapes.driver]).toEqual(["shapefile-zip", "ESRI Shapefile"]);
    expect(shapes.layers.map((l) => [l.name, l.featureCount, l.crs?.epsg]).sort()).toEqual([
      ["sample_lines", 2, 4326],
      ["sample_points", 3, 4326],
      ["sample_polygons", 2, 4326],
    ]);

    const csv = report<VectorReport>(await info("places.csv", CSV_XY));
    expect(csv.layers[0]).toMatchObject({ featureCount: 3, geometryTypes: ["Point"], crs: null });
    expect(csv.layers[0].fields.map((f) => f.name)).toEqual(["name", "count"]);
  }, 60_000);

  test("an empty FeatureCollection is described, not refused", async () => {
    const r = report<VectorReport>(await info("empty.geojson", '{"type":"FeatureCollection","features":[]}'));
    expect(r.featureCount).toBe(0);
    expect(r.layers[0]).toMatchObject({ featureCount: 0, geometryTypes: [], extent: null });
  }, 60_000);

  test("GeoTIFF: size, bands, data types, geotransform and CRS, as native gdalinfo sees them", async () => {
    const tif = await makeGeoTiff({ width: 30, height: 20, type: "Int16", bands: 3, origin: [500000, 5500000], cell: 25, epsg: 25832, value: (c, r) => c - r });
    const r = report<{
      kind: string;
      width: number;
      height: number;
      bandCount: number;
      bands: { band: number; dataType: string; colorInterpretation: string }[];
      geoTransform: number[];
      pixelSize: { x: number; y: number };
      crs: { epsg: number; name: string };
    }>(await info("dem.tif", tif));
    const native = nativeRaster("dem.tif", tif);
    expect([r.kind, r.width, r.height, r.bandCount]).toEqual(["raster", native.size[0], native.size[1], native.bands.length]);
    expect([r.width, r.height, r.bandCount]).toEqual([30, 20, 3]);
    expect(r.bands.map((b) => b.dataType)).toEqual(native.bands.map((b) => b.type));
    expect(r.bands.map((b) => b.colorInterpretation)).toEqual(["Red", "Green", "Blue"]);
    expect(r.geoTransform).toEqual(native.geoTransform!);
    expect(r.geoTransform).toEqual([500000, 25, 0, 5500500, 0, -25]);
    expect(r.pixelSize).toEqual({ x: 25, y: -25 });
    expect(r.crs.epsg).toBe(wktEpsg(native.coordinateSystem?.wkt)!);
    expect(r.crs).toMatchObject({ epsg: 25832, name: "ETRS89 / UTM zone 32N" });
  }, 60_000);

  test("rejects other files and damaged ones", async () => {
    await expectToolError(info("map.geojson", "%PDF-1.5\n%%EOF"), "INPUT_INVALID", /is a PDF document/);
    await expectToolError(info("page.kml", "<html><body>no</body></html>"), "INPUT_INVALID", /is an HTML page/);
    await expectToolError(info("doc.kml", "<?xml version='1.0'?><note>hi</note>"), "INPUT_INVALID", /an XML document that is not KML/);
    const gpkg = await makeTwoLayerGpkg();
    await expectToolError(info("two.gpkg", gpkg.slice(0, 20_000)), "INPUT_INVALID", /"two\.gpkg" is truncated/);
    const tif = await makeGeoTiff({ width: 100, height: 100 });
    await expectToolError(info("cut.tif", tif.slice(0, 5000)), "INPUT_INVALID", /"cut\.tif" is truncated/);
    await expectToolError(runGis("gis.info", inputOf("a.geojson", featureCollection()), { verbose: true }), "PARAMS_INVALID", /verbose/);
  }, 60_000);
});
