import { describe, expect, test } from "bun:test";
import { unzipSync, zipSync } from "fflate";
import { expectToolError } from "../../testing/run-tool";
import { nativeVector, runNative, type NativeLayer } from "../testing/cli";
import { CSV_WKT, CSV_XY, featureCollection, makeTwoLayerGpkg, manyFeatures, SAMPLE_FEATURES } from "../testing/fixtures";
import { inputOf, runGis } from "../testing/run";

const sample = () => inputOf("sample.geojson", featureCollection());
const convert = (to: string, input = sample(), extra: Record<string, unknown> = {}) => runGis("gis.convert", input, { to, ...extra });
const types = (layer: NativeLayer) => [...new Set(layer.features.map((f) => f.geometry?.type))].sort();
const names = (layer: NativeLayer) => layer.features.map((f) => f.properties.name ?? f.properties.Name);

describe("gis.convert", () => {
  test("GeoJSON to GeoPackage, KML, CSV, FlatGeobuf and GeoJSON: every feature, geometry type, attribute and the CRS", async () => {
    const expected = SAMPLE_FEATURES.map((f) => f.properties.name);
    for (const [to, file, mime, storesCrs] of [
      ["gpkg", "sample.gpkg", "application/geopackage+sqlite3", true],
      ["kml", "sample.kml", "application/vnd.google-earth.kml+xml", true],
      ["csv", "sample.csv", "text/csv", false],
      ["flatgeobuf", "sample.fgb", "application/flatgeobuf", true],
      // The same format as the input: the output is named apart from it (execute's rule).
      ["geojson", "sample-convert.geojson", "application/geo+json", true],
    ] as const) {
      const outputs = await convert(to);
      expect(outputs.map((o) => [o.name, o.mime])).toEqual([[file, mime]]);
      const [layer] = nativeVector(file, outputs[0].bytes, to === "csv" ? ["AUTODETECT_TYPE=YES"] : []);
      expect({ to, count: layer.featureCount, epsg: layer.epsg }).toEqual({ to, count: 7, epsg: storesCrs ? 4326 : null });
      expect(types(layer)).toEqual(["LineString", "Point", "Polygon"]);
      // FlatGeobuf's spatial index stores features in Hilbert-curve order; the others keep the input's.
      expect(to === "flatgeobuf" ? names(layer).sort() : names(layer)).toEqual(to === "flatgeobuf" ? [...expected].sort() : expected);
      const byName = (name: string) => layer.features.find((f) => names({ ...layer, features: [f] })[0] === name);
      expect(byName("Frankfurt-ish")?.geometry?.coordinates).toEqual([10, 50]);
      const courtyard = byName("A courtyard")?.geometry?.coordinates as number[][][];
      expect(courtyard.length).toBe(2); // the hole survived
      if (to !== "kml") expect(byName("Zürich")?.properties).toMatchObject({ name: "Zürich", kind: "point", rank: 2, height: 408 });
    }
  }, 60_000);

  test("GeoJSON to DXF: the geometry (DXF keeps no attributes or CRS)", async () => {
    const [out] = await convert("dxf");
    expect(out.name).toBe("sample.dxf");
    expect(new TextDecoder().decode(out.bytes.subarray(0, 200))).toContain("SECTION");
    const [layer] = nativeVector(out.name, out.bytes);
    expect(layer.featureCount).toBe(7);
    expect(types(layer)).toEqual(["LineString", "Point", "Polygon"]);
    expect(layer.features.find((f) => f.geometry?.type === "Point")?.geometry?.coordinates).toEqual([10, 50]);
  }, 60_000);

  test("GeoJSON to a shapefile ZIP: one shapefile per geometry kind, UTF-8 attributes, .prj", async () => {
    const [out] = await convert("shapefile-zip");
    expect(out.name).toBe("sample.zip");
    expect(out.mime).toBe("application/x-shapefile+zip");
    const entries = Object.keys(unzipSync(out.bytes)).sort();
    for (const kind of ["lines", "points", "polygons"]) {
      for (const ext of ["cpg", "dbf", "prj", "shp", "shx"]) expect(entries).toContain(`sample_${kind}.${ext}`);
    }
    const layers = nativeVector(out.name, out.bytes);
    const byName = Object.fromEntries(layers.map((l) => [l.name, l]));
    expect(Object.keys(byName).sort()).toEqual(["sample_lines", "sample_points", "sample_polygons"]);
    expect([byName.sample_points.featureCount, byName.sample_lines.featureCount, byName.sample_polygons.featureCount]).toEqual([3, 2, 2]);
    expect(byName.sample_points.geometry).toBe("Point");
    expect(byName.sample_polygons.geometry).toBe("Polygon");
    for (const layer of layers) expect(layer.epsg).toBe(4326);
    expect(names(byName.sample_points)).toEqual(["Frankfurt-ish", "Zürich", "Null Island"]);
    expect(byName.sample_points.features[0].geometry?.coordinates).toEqual([10, 50]);
  }, 60_000);

  test("a shapefile ZIP reads back: one GeoJSON per shapefile", async () => {
    const [zip] = await convert("shapefile-zip");
    const outputs = await convert("geojson", inputOf("sample.zip", zip.bytes));
    expect(outputs.map((o) => o.name).sort()).toEqual(["sample-sample_lines.geojson", "sample-sample_points.geojson", "sample-sample_polygons.geojson"]);
    const counts = outputs.map((o) => nativeVector(o.name, o.bytes)[0].featureCount).sort();
    expect(counts).toEqual([2, 2, 3]);
  }, 60_000);

  test("every format it writes, it reads back (KML, DXF, FlatGeobuf, CSV, GeoPackage, GeoJSON)", async () => {
    for (const [from, count] of [
      ["kml", 7],
      ["dxf", 7],
      ["flatgeobuf", 7],
      ["csv", 7],
      ["gpkg", 7],
      ["geojson", 7],
    ] as const) {
      const [written] = await convert(from);
      const [back] = await convert("geojson", inputOf(written.name, written.bytes));
      const [layer] = nativeVector(back.name, back.bytes);
      expect({ from, count: layer.featureCount, types: types(layer) }).toEqual({ from, count, types: ["LineString", "Point", "Polygon"] });
    }
    const semicolons = "name;lat;lon\nA;50;10\nB;51;11\n";
    const [fromSemicolons] = await convert("geojson", inputOf("semi.csv", semicolons));
    expect(nativeVector(fromSemicolons.name, fromSemicolons.bytes)[0].features.map((f) => f.geometry?.coordinates)).toEqual([
      [10, 50],
      [11, 51],
    ]);
  }, 60_000);

  test("CSV with lon/lat columns or a WKT column becomes real geometry; CSV out as WKT or X/Y", async () => {
    const [points] = await convert("geojson", inputOf("places.csv", CSV_XY));
    const [layer] = nativeVector(points.name, points.bytes);
    expect(layer.featureCount).toBe(3);
    expect(layer.features.map((f) => f.geometry?.coordinates)).toEqual([[10, 50], [8.5417, 47.3769], [0, 0]]);
    expect(layer.features[1].properties).toMatchObject({ name: "Zürich", count: 5 });
    expect(Object.keys(layer.features[0].properties).sort()).toEqual(["count", "name"]); // lon/lat became the geometry

    const [wkt] = await convert("gpkg", inputOf("mixed.csv", CSV_WKT));
    const [mixed] = nativeVector(wkt.name, wkt.bytes);
    expect(types(mixed)).toEqual(["LineString", "Point", "Polygon"]);
    expect(mixed.features.map((f) => f.properties.label)).toEqual(["p", "l", "a"]);

    const [asXy] = await convert("csv", inputOf("places.csv", CSV_XY), { csvGeometry: "xy" });
    expect(new TextDecoder().decode(asXy.bytes).split(/\r?\n/)[1]).toBe("10,50,Frankfurt-ish,3");
    const [asWkt] = await convert("csv", inputOf("places.csv", CSV_XY));
    expect(new TextDecoder().decode(asWkt.bytes).split(/\r?\n/)[0]).toBe("WKT,name,count");
    await expectToolError(convert("csv", inputOf("mixed.csv", CSV_WKT), { csvGeometry: "xy" }), "PARAMS_INVALID", /needs point data.*LINESTRING/);
  }, 60_000);

  test("multi-layer GeoPackage: one file per layer for one-layer formats, one file otherwise, `layer` picks one", async () => {
    const gpkg = inputOf("two.gpkg", await makeTwoLayerGpkg());
    const perLayer = await convert("geojson", gpkg);
    expect(perLayer.map((o) => o.name)).toEqual(["two-places.geojson", "two-areas.geojson"]);
    expect(perLayer.map((o) => nativeVector(o.name, o.bytes)[0].featureCount)).toEqual([3, 2]);

    const [kml] = await convert("kml", gpkg);
    expect(nativeVector(kml.name, kml.bytes).map((l) => [l.name, l.featureCount])).toEqual([
      ["places", 3],
      ["areas", 2],
    ]);

    const only = await convert("flatgeobuf", gpkg, { layer: "areas" });
    expect(only.map((o) => o.name)).toEqual(["two.fgb"]);
    const [areas] = nativeVector(only[0].name, only[0].bytes);
    expect([areas.featureCount, areas.geometry, areas.epsg]).toEqual([2, "Polygon", 4326]);

    await expectToolError(convert("geojson", gpkg, { layer: "roads" }), "PARAMS_INVALID", /no layer "roads".*"places", "areas"/);
  }, 60_000);

  test("a bigger file: 20,000 features to GeoPackage and FlatGeobuf", async () => {
    const input = inputOf("many.geojson", featureCollection(manyFeatures(20_000)));
    for (const to of ["gpkg", "flatgeobuf"]) {
      const [out] = await convert(to, input);
      const summary = runNative(["ogrinfo", "-ro", "-so", "-al"], out.name, out.bytes);
      expect(summary).toContain("Feature Count: 20000");
    }
  }, 60_000);

  test("a GeoPackage of 20,000 features converts back (ogr2ogr's threaded Arrow reader is off in this build)", async () => {
    const [gpkg] = await convert("gpkg", inputOf("many.geojson", featureCollection(manyFeatures(20_000))));
    const [back] = await convert("geojson", [{ name: gpkg.name, bytes: gpkg.bytes }]);
    expect((JSON.parse(new TextDecoder().decode(back.bytes)) as { features: unknown[] }).features.length).toBe(20_000);
  }, 60_000);

  test("outputs are byte-for-byte the same on every run (GeoPackage and DBF dates are fixed)", async () => {
    for (const to of ["gpkg", "shapefile-zip", "flatgeobuf", "kml", "dxf", "csv", "geojson"]) {
      const [a] = await convert(to);
      const [b] = await convert(to);
      expect({ to, same: Bun.hash(a.bytes) === Bun.hash(b.bytes) }).toEqual({ to, same: true });
    }
    const [gpkg] = await convert("gpkg");
    expect(runNative(["ogrinfo", "-ro", "-sql", "SELECT last_change FROM gpkg_contents"], gpkg.name, gpkg.bytes)).toMatch(/last_change \(\w+\) = 2000[-/]01[-/]01[T ]00:00:00/);
    const [zip] = await convert("shapefile-zip");
    const dbf = unzipSync(zip.bytes)["sample_points.dbf"];
    expect([...dbf.subarray(1, 4)]).toEqual([100, 1, 1]); // last update 2000-01-01 (years since 1900)
  }, 60_000);

  test("the same file name with new content gives new output: nothing is cached between runs", async () => {
    const one = featureCollection([SAMPLE_FEATURES[0]]);
    const two = featureCollection([SAMPLE_FEATURES[1], SAMPLE_FEATURES[2]]);
    const [a] = await convert("gpkg", inputOf("same.geojson", one));
    const [b] = await convert("gpkg", inputOf("same.geojson", two));
    expect(nativeVector(a.name, a.bytes)[0].featureCount).toBe(1);
    expect(nativeVector(b.name, b.bytes)[0].featureCount).toBe(2);
  }, 60_000);

  test("rejects the wrong kind of file, truncated and empty data, and bad params", async () => {
    const pdf = "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n";
    await expectToolError(convert("gpkg", inputOf("map.geojson", pdf)), "INPUT_INVALID", /"map\.geojson" is a PDF document, not a file gis\.convert can read/);
    await expectToolError(convert("gpkg", inputOf("map.geojson", '{"type": "FeatureCollection", "features": [')), "INPUT_INVALID", /could not be read as GeoJSON/);
    await expectToolError(convert("gpkg", inputOf("empty.geojson", '{"type":"FeatureCollection","features":[]}')), "INPUT_EMPTY", /"empty\.geojson" contains no features/);
    const [gpkg] = await convert("gpkg");
    await expectToolError(convert("geojson", inputOf("cut.gpkg", gpkg.bytes.slice(0, Math.floor(gpkg.bytes.length * 0.6)))), "INPUT_INVALID", /"cut\.gpkg" is truncated/);
    const [zip] = await convert("shapefile-zip");
    await expectToolError(convert("geojson", inputOf("cut.zip", zip.bytes.slice(0, zip.bytes.length - 30))), "INPUT_INVALID", /not a readable ZIP/);
    await expectToolError(convert("geojson", inputOf("notes.zip", makeZip({ "readme.txt": "no shapefile here" }))), "INPUT_INVALID", /without a shapefile/);
    await expectToolError(convert("geojson", inputOf("table.csv", "a,b\n1,2\n")), "INPUT_INVALID", /no geometry.*WKT/);
    const tiff = new Uint8Array([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0, 0, 0]);
    await expectToolError(convert("geojson", inputOf("image.tif", tiff)), "INPUT_INVALID", /GeoTIFF, which gis\.convert does not take — it is a raster/);
    await expectToolError(convert("shp", sample()), "PARAMS_INVALID", /to: Expected one of "geojson", "gpkg"/);
    await expectToolError(convert("geojson", sample(), { layer: "" }), "PARAMS_INVALID", /layer/);
  }, 60_000);
});

function makeZip(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new TextEncoder().encode(v)])));
}
