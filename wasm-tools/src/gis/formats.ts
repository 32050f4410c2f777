/**
 * The GIS formats the family reads and writes, as data (GDAL driver, file extension, whether one
 * file holds several layers), and the look at an input's first bytes that decides which one it
 * is, so a wrong kind of file is refused with a message that says what it is instead.
 */
import { ToolError, type ToolInput } from "@vektor/shared/tools/manifest";

/** Vector formats, by the service's format ids. */
export const VECTOR_FORMATS = ["geojson", "gpkg", "shapefile-zip", "kml", "csv", "flatgeobuf", "dxf"] as const;
export type VectorFormat = (typeof VECTOR_FORMATS)[number];

/** Everything the family opens. */
export type GisFormat = VectorFormat | "geotiff";

/** How GDAL reads and writes one vector format. */
export interface VectorDriver {
  title: string;
  /** GDAL's short driver name. */
  driver: string;
  /** Extension of the file GDAL writes (a shapefile is zipped afterwards). */
  ext: string;
  /** One file can hold several layers; otherwise each layer becomes its own file. */
  multiLayer: boolean;
  /** The format stores a coordinate reference system. */
  storesCrs: boolean;
  /** ogr2ogr options every write to this format gets. */
  writeOptions: string[];
}

/** Fixed date for the DBF header of written shapefiles (GDAL writes today's date otherwise). */
const DBF_DATE = "2000-01-01";

export const VECTOR_DRIVERS: Record<VectorFormat, VectorDriver> = {
  geojson: { title: "GeoJSON", driver: "GeoJSON", ext: "geojson", multiLayer: false, storesCrs: true, writeOptions: [] },
  gpkg: { title: "GeoPackage", driver: "GPKG", ext: "gpkg", multiLayer: true, storesCrs: true, writeOptions: [] },
  "shapefile-zip": {
    title: "Shapefile (ZIP)",
    driver: "ESRI Shapefile",
    ext: "shp",
    multiLayer: true,
    storesCrs: true,
    writeOptions: ["-lco", "ENCODING=UTF-8", "-lco", `DBF_DATE_LAST_UPDATE=${DBF_DATE}`],
  },
  kml: { title: "KML", driver: "KML", ext: "kml", multiLayer: true, storesCrs: true, writeOptions: [] },
  csv: { title: "CSV", driver: "CSV", ext: "csv", multiLayer: false, storesCrs: false, writeOptions: [] },
  flatgeobuf: { title: "FlatGeobuf", driver: "FlatGeobuf", ext: "fgb", multiLayer: false, storesCrs: true, writeOptions: [] },
  dxf: { title: "DXF", driver: "DXF", ext: "dxf", multiLayer: false, storesCrs: false, writeOptions: [] },
};

/** Column names the CSV reader takes as geometry: WKT, or x/y (lon/lat, easting/northing). */
export const CSV_OPEN_OPTIONS = [
  "GEOM_POSSIBLE_NAMES=WKT,geometry,geom,the_geom,wkt_geom,shape",
  "X_POSSIBLE_NAMES=x,lon,lng,long,longitude,easting",
  "Y_POSSIBLE_NAMES=y,lat,latitude,northing",
  "KEEP_GEOM_COLUMNS=NO",
  "AUTODETECT_TYPE=YES",
];

/** How a CSV input holds its geometry: a WKT column, or x/y columns (judged from its header line). */
export function csvGeometryStyle(bytes: Uint8Array): "wkt" | "xy" {
  const header = new TextDecoder().decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  const names = header.split(/[,;\t]/).map((c) => c.trim().replace(/^"|"$/g, "").toLowerCase());
  const wktNames = CSV_OPEN_OPTIONS[0].split("=")[1].toLowerCase().split(",");
  return names.some((n) => wktNames.includes(n)) ? "wkt" : "xy";
}

/** What an input's bytes are: a format the family reads, or a description of what it is instead. */
export type Sniffed = { format: GisFormat } | { not: string };

const latin1 = new TextDecoder("latin1");

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  return signature.every((b, i) => bytes[at + i] === b);
}

/** Known non-GIS files, so the message can say what the file is. */
const OTHER_SIGNATURES: [number[], string][] = [
  [[0x25, 0x50, 0x44, 0x46, 0x2d], "a PDF document"],
  [[0x89, 0x50, 0x4e, 0x47], "a PNG image"],
  [[0xff, 0xd8, 0xff], "a JPEG image"],
  [[0x47, 0x49, 0x46, 0x38], "a GIF image"],
  [[0x1f, 0x8b], "a gzip archive"],
  [[0x37, 0x7a, 0xbc, 0xaf], "a 7-Zip archive"],
  [[0x52, 0x61, 0x72, 0x21], "a RAR archive"],
  [[0x7f, 0x45, 0x4c, 0x46], "an executable"],
];

/** Decides what `input` is from its first bytes (its name only breaks ties between text formats). */
export function sniff(input: ToolInput): Sniffed {
  const b = input.bytes;
  if (startsWith(b, [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0])) return { format: "gpkg" };
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06])) return { format: "shapefile-zip" };
  if (startsWith(b, [0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62])) return { format: "flatgeobuf" };
  if (startsWith(b, [0x49, 0x49, 0x2a, 0]) || startsWith(b, [0x4d, 0x4d, 0, 0x2a]) || startsWith(b, [0x49, 0x49, 0x2b, 0]) || startsWith(b, [0x4d, 0x4d, 0, 0x2b])) {
    return { format: "geotiff" };
  }
  for (const [signature, what] of OTHER_SIGNATURES) if (startsWith(b, signature)) return { not: what };
  const head = latin1.decode(b.subarray(0, 4096)).replace(/^\uFEFF|^\xEF\xBB\xBF/, "");
  if (head.startsWith("AutoCAD Binary DXF")) return { format: "dxf" };
  if (/[\x00-\x08\x0E-\x1A\x1C-\x1F]/.test(head.replace(/\x00+$/, ""))) return { not: "a binary file of an unknown kind" };
  const text = head.trimStart();
  if (text.startsWith("{") || text.startsWith("[")) return { format: "geojson" };
  if (text.startsWith("<")) {
    if (/<kml[\s>]/i.test(head)) return { format: "kml" };
    if (/<svg[\s>]/i.test(head)) return { not: "an SVG image" };
    if (/<html[\s>]|<!doctype html/i.test(head)) return { not: "an HTML page" };
    return { not: "an XML document that is not KML" };
  }
  if (/^0\s*\r?\n\s*SECTION\s*\r?\n/.test(text) || /^999\s*\r?\n/.test(text)) return { format: "dxf" };
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  if (/\.(csv|tsv|txt)$/i.test(input.name) || /[,;\t]/.test(firstLine)) return { format: "csv" };
  return { not: "a text file in no format this tool reads" };
}

/** Human title of a format. */
export function formatTitle(format: GisFormat): string {
  return format === "geotiff" ? "GeoTIFF" : VECTOR_DRIVERS[format].title;
}

/**
 * The format of `input`, which must be one of `accepted`; a ToolError INPUT_INVALID naming what
 * the file is otherwise.
 */
export function detectFormat<F extends GisFormat>(input: ToolInput, accepted: readonly F[], purpose: string): F {
  const found = sniff(input);
  const list = accepted.map(formatTitle).join(", ");
  if ("not" in found) throw new ToolError("INPUT_INVALID", `"${input.name}" is ${found.not}, not a file ${purpose} can read (${list})`);
  if (!(accepted as readonly GisFormat[]).includes(found.format)) {
    const hint = found.format === "geotiff" ? " — it is a raster" : (accepted as readonly GisFormat[]).includes("geotiff") ? "" : " — it is vector data";
    throw new ToolError("INPUT_INVALID", `"${input.name}" is ${formatTitle(found.format)}, which ${purpose} does not take${hint} (it takes ${list})`);
  }
  return found.format as F;
}

/** `My Roads (v2)` -> `My_Roads_v2_`: a name safe as a file and layer name in the engine. */
export function safeName(name: string, fallback = "data"): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^[._-]+/, "");
  return cleaned.slice(0, 80) || fallback;
}
