/**
 * GIS test data made in code: GeoJSON written by hand (points, lines and polygons with
 * properties, in EPSG:4326), CSV with x/y or WKT columns, and GeoTIFFs that the engine itself
 * makes from an ASCII grid (gdal_translate -a_srs), so the tests need no files from outside.
 */
import "../../testing/node-host"; // the engine's WASM and data come from node_modules, as on the server
import { loadGdal } from "../init";

/** A GeoJSON Feature. */
export interface Feature {
  type: "Feature";
  properties: Record<string, string | number | boolean | null>;
  geometry: { type: string; coordinates: unknown } | null;
}

/** Three points (the first at lon 10, lat 50), two lines, two polygons (one with a hole). */
export const SAMPLE_FEATURES: Feature[] = [
  { type: "Feature", properties: { name: "Frankfurt-ish", kind: "point", rank: 1, height: 112.5 }, geometry: { type: "Point", coordinates: [10, 50] } },
  { type: "Feature", properties: { name: "Zürich", kind: "point", rank: 2, height: 408 }, geometry: { type: "Point", coordinates: [8.5417, 47.3769] } },
  { type: "Feature", properties: { name: "Null Island", kind: "point", rank: 3, height: 0 }, geometry: { type: "Point", coordinates: [0, 0] } },
  { type: "Feature", properties: { name: "A road", kind: "line", rank: 4, height: null }, geometry: { type: "LineString", coordinates: [[10, 50], [10.5, 50.25], [11, 50.5]] } },
  { type: "Feature", properties: { name: "A river", kind: "line", rank: 5, height: null }, geometry: { type: "LineString", coordinates: [[7, 51], [7.2, 51.1]] } },
  { type: "Feature", properties: { name: "A field", kind: "polygon", rank: 6, height: 90 }, geometry: { type: "Polygon", coordinates: [[[9, 49], [9.5, 49], [9.5, 49.5], [9, 49.5], [9, 49]]] } },
  {
    type: "Feature",
    properties: { name: "A courtyard", kind: "polygon", rank: 7, height: 95 },
    geometry: { type: "Polygon", coordinates: [[[11, 48], [12, 48], [12, 49], [11, 49], [11, 48]], [[11.4, 48.4], [11.6, 48.4], [11.6, 48.6], [11.4, 48.6], [11.4, 48.4]]] },
  },
];

/** A FeatureCollection's bytes. */
export function featureCollection(features: Feature[] = SAMPLE_FEATURES, name?: string): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ type: "FeatureCollection", ...(name ? { name } : {}), features }, null, 1));
}

/** `count` points on a grid over central Europe, each with a few properties (for size and timing tests). */
export function manyFeatures(count: number): Feature[] {
  const features: Feature[] = [];
  for (let i = 0; i < count; i++) {
    const x = 5 + (i % 500) * 0.02;
    const y = 45 + Math.floor(i / 500) * 0.02;
    const geometry =
      i % 2 === 0
        ? { type: "Point", coordinates: [x, y] }
        : { type: "Polygon", coordinates: [[[x, y], [x + 0.01, y], [x + 0.01, y + 0.01], [x, y + 0.01], [x, y]]] };
    features.push({ type: "Feature", properties: { id: i, name: `feature ${i}`, value: (i * 37) % 1000, even: i % 2 === 0 }, geometry });
  }
  return features;
}

/** Points as CSV with lon/lat columns (no CRS: CSV has none). */
export const CSV_XY = "name,lon,lat,count\nFrankfurt-ish,10,50,3\nZürich,8.5417,47.3769,5\nNull Island,0,0,0\n";

/** Mixed geometries as CSV with a WKT column. */
export const CSV_WKT = 'id,WKT,label\n1,"POINT (10 50)",p\n2,"LINESTRING (10 50,11 51)",l\n3,"POLYGON ((9 49,9.5 49,9.5 49.5,9 49.5,9 49))",a\n';

/** A raster the tests make: a grid of `width` x `height` values `f(col, row)` with a CRS. */
export interface RasterSpec {
  width: number;
  height: number;
  /** GDAL data type of the GeoTIFF, e.g. Byte, UInt16, Float32. */
  type?: string;
  /** Lower-left corner and cell size, in the CRS's units. */
  origin?: [number, number];
  cell?: number;
  epsg?: number | null;
  /** Copies of band 1 to write (3 makes an RGB-like raster). */
  bands?: number;
  /** Colour interpretation of the bands, gdal_translate -colorinterp style (default red,green,blue for 3 bands). */
  colorInterp?: string;
  value?: (col: number, row: number) => number;
}

/** A GeoTIFF made by the WASM engine from an ESRI ASCII grid (gdal_translate -a_srs -ot). */
export async function makeGeoTiff(spec: RasterSpec): Promise<Uint8Array> {
  const { width, height, type = "Byte", origin = [10, 50], cell = 0.01, epsg = 4326, bands = 1 } = spec;
  const value = spec.value ?? ((c: number, r: number) => (c * 7 + r * 3) % 256);
  const rows: string[] = [];
  for (let r = 0; r < height; r++) rows.push(Array.from({ length: width }, (_, c) => value(c, r)).join(" "));
  const asc = `ncols ${width}\nnrows ${height}\nxllcorner ${origin[0]}\nyllcorner ${origin[1]}\ncellsize ${cell}\n${rows.join("\n")}\n`;
  const gdal = await loadGdal();
  return gdal.operation((op) => {
    const grid = op.openDataset(op.write("grid.asc", asc), { kind: "raster", drivers: ["AAIGrid"] });
    const args = ["-of", "GTiff", "-ot", type, ...Array.from({ length: bands }, () => ["-b", "1"]).flat()];
    if (epsg !== null) args.push("-a_srs", `EPSG:${epsg}`);
    const colors = spec.colorInterp ?? (bands === 3 ? "red,green,blue" : undefined);
    if (colors) args.push("-colorinterp", colors);
    const dest = `${op.dir}/out.tif`;
    op.translate(dest, grid, args);
    return op.read(dest);
  });
}

/** A GeoPackage with two layers (`places`: points, `areas`: polygons), made by the engine. */
export async function makeTwoLayerGpkg(): Promise<Uint8Array> {
  const gdal = await loadGdal();
  return gdal.operation((op) => {
    const points = SAMPLE_FEATURES.filter((f) => f.geometry?.type === "Point");
    const polygons = SAMPLE_FEATURES.filter((f) => f.geometry?.type === "Polygon");
    const dest = `${op.dir}/two.gpkg`;
    const a = op.openDataset(op.write("places.geojson", featureCollection(points)), { kind: "vector" });
    op.vectorTranslate(dest, a, ["-f", "GPKG", "-nln", "places"]);
    const b = op.openDataset(op.write("areas.geojson", featureCollection(polygons)), { kind: "vector" });
    op.vectorTranslate(dest, b, ["-f", "GPKG", "-update", "-nln", "areas"]);
    return op.read(dest);
  });
}

/** Web Mercator (EPSG:3857) of lon/lat, spelled out: the reference for reprojection checks. */
export function webMercator(lon: number, lat: number): [number, number] {
  const R = 6378137;
  return [(R * lon * Math.PI) / 180, R * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360))];
}
