/**
 * Vector data in and out of the engine, the same way for every tool: an input is checked,
 * staged in the operation's folder and opened with the one driver its bytes call for; its layers
 * are summarised (features, geometry, fields, extent, CRS); outputs are written per format
 * rules (one file per layer where a format holds one, shapefiles split by geometry and zipped).
 */
import { inputSize, ToolError, type RunContext, type ToolInput, type ToolOutput } from "@vektor/shared/tools/manifest";
import { errorMessage, output, stem } from "../runtime/context";
import { unzipShapefiles, zipFiles } from "./archive";
import { summariseCrs, type CrsSummary, type InfoCrs } from "./crs";
import { GdalError, type Dataset, type Operation } from "./engine";
import { outputFolder, stageInput, wholeInput } from "./host-files";
import { CSV_OPEN_OPTIONS, detectFormat, safeName, VECTOR_DRIVERS, type VectorFormat } from "./formats";

/** One field of a layer. */
export interface FieldSummary {
  name: string;
  type: string;
  subType?: string;
  width?: number;
  precision?: number;
}

/** One layer, as the tools report it. */
export interface LayerSummary {
  name: string;
  featureCount: number;
  /** The declared geometry type (`Point`, `Unknown (any)`, ...), or null for a table without geometry. */
  geometryType: string | null;
  geometryColumn: string | null;
  fields: FieldSummary[];
  /** [minX, minY, maxX, maxY] in the layer's CRS, or null when empty or without geometry. */
  extent: [number, number, number, number] | null;
  crs: CrsSummary | null;
}

/** An input opened in an operation. */
export interface OpenedVector {
  input: ToolInput;
  format: VectorFormat;
  /** The GDAL driver that read it. */
  driver: { shortName: string; longName: string };
  dataset: Dataset;
  layers: LayerSummary[];
  /** A GDAL message with the engine's paths replaced by the input's name. */
  explain(message: string): string;
}

interface OgrInfoJson {
  driverShortName?: string;
  driverLongName?: string;
  layers?: {
    name: string;
    featureCount?: number;
    geometryFields?: { name: string; type: string; extent?: number[]; coordinateSystem?: InfoCrs }[];
    fields?: { name: string; type: string; subType?: string; width?: number; precision?: number }[];
  }[];
}

/** Extension a staged input is written with (GDAL's drivers look at it). */
const STAGED_EXT: Record<Exclude<VectorFormat, "shapefile-zip">, string> = {
  geojson: "geojson",
  gpkg: "gpkg",
  kml: "kml",
  csv: "csv",
  flatgeobuf: "fgb",
  dxf: "dxf",
};

/**
 * Throws INPUT_INVALID when a SQLite file is shorter than its header says (a truncated download):
 * SQLite would otherwise read it lazily and fail half-way with "disk image is malformed".
 */
export function assertCompleteSqlite(input: ToolInput): void {
  const b = input.bytes;
  const size = inputSize(input);
  if (size < 100) throw new ToolError("INPUT_INVALID", `"${input.name}" is truncated: it ends inside the GeoPackage (SQLite) header`);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const raw = view.getUint16(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const pages = view.getUint32(28);
  const validFor = view.getUint32(24) === view.getUint32(92); // the page count is only kept up to date by SQLite >= 3.7.0
  if (validFor && pages > 0 && size < pageSize * pages) {
    throw new ToolError("INPUT_INVALID", `"${input.name}" is truncated: its header says ${pages * pageSize} bytes, the file has ${size}`);
  }
}

/**
 * Checks, stages and opens a vector input; its layers are summarised. Extents are computed only
 * when asked for (`withExtent`): on large layers that pass costs as much as opening the file.
 */
export function openVector(op: Operation, input: ToolInput, accepted: readonly VectorFormat[], purpose: string, withExtent = false): OpenedVector {
  const format = detectFormat(input, accepted, purpose);
  const driver = VECTOR_DRIVERS[format];
  const base = safeName(stem(input.name));
  let path: string;
  if (format === "shapefile-zip") {
    for (const [name, bytes] of unzipShapefiles(wholeInput(op, input))) op.write(`in/${name}`, bytes);
    path = `${op.dir}/in`;
  } else {
    if (format === "gpkg") assertCompleteSqlite(input);
    path = stageInput(op, input, `in/${base}.${STAGED_EXT[format]}`);
  }
  const explain = (message: string) => message.replaceAll(path, input.name).replaceAll(`${op.dir}/`, "").trim();
  let dataset: Dataset;
  try {
    dataset = op.openDataset(path, { kind: "vector", drivers: [driver.driver], openOptions: format === "csv" ? CSV_OPEN_OPTIONS : [] });
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `"${input.name}" could not be read as ${driver.title}: ${explain(errorMessage(err))}`);
  }
  let layers: LayerSummary[];
  let info: OgrInfoJson;
  try {
    info = op.vectorInfo(dataset, withExtent ? ["-so"] : ["-so", "-noextent"]) as OgrInfoJson;
    layers = summariseLayers(info);
  } catch (err) {
    if (!(err instanceof GdalError)) throw err;
    throw new ToolError("INPUT_INVALID", `"${input.name}" is damaged or truncated: ${explain(err.message)}`);
  }
  const broken = op.messages().find((line) => /^ERROR \d+:/.test(line));
  if (broken && layers.every((l) => l.featureCount <= 0)) {
    throw new ToolError("INPUT_INVALID", `"${input.name}" is damaged or truncated: ${explain(broken.replace(/^ERROR \d+:\s*/, ""))}`);
  }
  if (layers.length === 0) throw new ToolError("INPUT_EMPTY", `"${input.name}" contains no layers`);
  const found = { shortName: info.driverShortName ?? driver.driver, longName: info.driverLongName ?? driver.title };
  return { input, format, driver: found, dataset, layers, explain };
}

function summariseLayers(info: OgrInfoJson): LayerSummary[] {
  return (info.layers ?? []).map((layer) => {
    const geometry = layer.geometryFields?.[0];
    const e = geometry?.extent;
    const usable = e?.length === 4 && e.every(Number.isFinite) && e[0] <= e[2];
    return {
      name: layer.name,
      featureCount: layer.featureCount ?? -1,
      geometryType: geometry ? geometry.type : null,
      geometryColumn: geometry ? geometry.name || null : null,
      fields: (layer.fields ?? []).map((f) => ({
        name: f.name,
        type: f.type,
        ...(f.subType ? { subType: f.subType } : {}),
        ...(f.width ? { width: f.width } : {}),
        ...(f.precision ? { precision: f.precision } : {}),
      })),
      extent: usable ? (e as [number, number, number, number]) : null,
      crs: summariseCrs(geometry?.coordinateSystem),
    };
  });
}

/**
 * The layers a conversion works on: the one named `layer` (PARAMS_INVALID if there is none of
 * that name), else all of them. Refuses data without geometry and data without features.
 */
export function selectLayers(opened: OpenedVector, layer: string | undefined): LayerSummary[] {
  const { input, layers } = opened;
  let chosen = layers;
  if (layer !== undefined) {
    const match = layers.find((l) => l.name === layer) ?? layers.find((l) => l.name.toLowerCase() === layer.toLowerCase());
    if (!match) throw new ToolError("PARAMS_INVALID", `layer: "${input.name}" has no layer "${layer}"; its layers are ${layers.map((l) => `"${l.name}"`).join(", ")}`);
    chosen = [match];
  }
  if (chosen.every((l) => l.geometryType === null)) {
    const hint = opened.format === "csv" ? " — name a column WKT (or geometry), or give x/y (lon/lat) columns" : "";
    throw new ToolError("INPUT_INVALID", `"${input.name}" has no geometry${hint}`);
  }
  const withFeatures = chosen.filter((l) => l.featureCount !== 0);
  if (withFeatures.length === 0) {
    const what = layer !== undefined ? `layer "${chosen[0].name}" of "${input.name}"` : `"${input.name}"`;
    throw new ToolError("INPUT_EMPTY", `${what} contains no features`);
  }
  return withFeatures;
}

/** OGR SQL quoting of a layer name. */
function quoteLayer(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The geometry types present in a layer (`POINT`, `MULTIPOLYGON`, ...; null for features without geometry). */
export function presentGeometryTypes(op: Operation, dataset: Dataset, layer: string): (string | null)[] {
  const sql = `SELECT DISTINCT OGR_GEOMETRY FROM ${quoteLayer(layer)}`;
  const info = op.vectorInfo(dataset, ["-sql", sql, "-dialect", "OGRSQL", "-features"]) as {
    layers?: { features?: { properties?: { OGR_GEOMETRY?: string | null } }[] }[];
  };
  const values = (info.layers?.[0]?.features ?? []).map((f) => f.properties?.OGR_GEOMETRY || null);
  return [...new Set(values)].sort((a, b) => String(a).localeCompare(String(b)));
}

/** `Multi Polygon`, `3D Point`, `PointZM` -> `MULTIPOLYGON`, `POINT`, `POINT` (OGR SQL's OGR_GEOMETRY spelling). */
export function normaliseType(type: string): string {
  return type.toUpperCase().replace(/\s+/g, "").replace(/^3D/, "").replace(/(ZM|Z|M)$/, "");
}

const FAMILIES: { suffix: string; types: string[]; nlt?: (present: string[]) => string | undefined }[] = [
  { suffix: "points", types: ["POINT", "MULTIPOINT"], nlt: (present) => (present.includes("MULTIPOINT") ? "MULTIPOINT" : "POINT") },
  { suffix: "lines", types: ["LINESTRING", "MULTILINESTRING", "CIRCULARSTRING", "COMPOUNDCURVE", "MULTICURVE"] },
  { suffix: "polygons", types: ["POLYGON", "MULTIPOLYGON", "CURVEPOLYGON", "MULTISURFACE", "TRIANGLE", "TIN", "POLYHEDRALSURFACE"] },
];

/** How a conversion writes. */
export interface WriteRequest {
  target: VectorFormat;
  layers: LayerSummary[];
  /** ogr2ogr options for every layer (e.g. -t_srs). */
  args: string[];
  /** Output file stem, e.g. `roads` or `roads-epsg3857`. */
  outputStem: string;
  /** CSV output: geometry as a WKT column or as X/Y columns (points only). */
  csvGeometry?: "wkt" | "xy";
  /** A tool's own reading of a GDAL failure (e.g. a transformation that has no answer); INPUT_INVALID otherwise. */
  onFailure?: (message: string) => ToolError | undefined;
  /** Where outputs are written (RunContext.outputDir on the server, .outputFolder in the browser); neither: they come back as bytes. */
  place: Pick<RunContext, "outputDir" | "outputFolder">;
}

/** Writes the selected layers in the target format and returns the output files. */
export async function writeVector(op: Operation, opened: OpenedVector, request: WriteRequest): Promise<ToolOutput[]> {
  const { target, layers, args, outputStem } = request;
  const driver = VECTOR_DRIVERS[target];
  const base = ["-f", driver.driver, ...driver.writeOptions, ...args];
  const translate = (dest: string, extra: string[]) => {
    try {
      op.vectorTranslate(dest, opened.dataset, [...base, ...extra]);
    } catch (err) {
      if (!(err instanceof GdalError)) throw err;
      const message = opened.explain(err.message);
      throw request.onFailure?.(message) ?? new ToolError("INPUT_INVALID", `"${opened.input.name}" could not be written as ${driver.title}: ${message}`);
    }
  };

  if (target === "shapefile-zip") {
    // The parts are read back whole and zipped, so they go to the host's folder or memory, never the browser's disk.
    const out = (await outputFolder(op, { outputDir: request.place.outputDir }, [])).dir;
    for (const layer of layers) {
      for (const pass of shapefilePasses(op, opened, layer)) translate(out, pass);
    }
    const files = new Map(op.files(out).map((path) => [path.slice(out.length + 1), op.read(path)]));
    return [output(`${outputStem}.zip`, target, zipFiles(files))];
  }

  if (driver.multiLayer) {
    const file = `${safeName(outputStem)}.${driver.ext}`;
    const out = await outputFolder(op, request.place, [file]);
    translate(`${out.dir}/${file}`, layers.map((l) => l.name));
    return [await out.output(`${out.dir}/${file}`, `${outputStem}.${driver.ext}`, target)];
  }

  const extra: string[] = [];
  if (target === "csv") {
    const xy = request.csvGeometry === "xy";
    if (xy) assertPointsOnly(op, opened, layers);
    extra.push("-lco", `GEOMETRY=${xy ? "AS_XY" : "AS_WKT"}`);
  }
  const files = layers.map((_, i) => `${i}.${driver.ext}`);
  const out = await outputFolder(op, request.place, files);
  const outputs: ToolOutput[] = [];
  for (const [i, layer] of layers.entries()) {
    const name = layers.length === 1 ? `${outputStem}.${driver.ext}` : `${outputStem}-${safeName(layer.name, `layer${i + 1}`)}.${driver.ext}`;
    translate(`${out.dir}/${files[i]}`, [...extra, "-nln", layer.name, layer.name]);
    outputs.push(await out.output(`${out.dir}/${files[i]}`, name, target));
  }
  return outputs;
}

/**
 * ogr2ogr runs that write one layer into a shapefile folder. A shapefile holds one kind of
 * geometry, so a layer with points, lines and polygons becomes `<layer>_points`, `_lines` and
 * `_polygons`; features without geometry go with the first of them.
 */
function shapefilePasses(op: Operation, opened: OpenedVector, layer: LayerSummary): string[][] {
  const declared = normaliseType(layer.geometryType ?? "");
  if (FAMILIES.some((f) => f.types.includes(declared))) return [[layer.name]];
  const present = presentGeometryTypes(op, opened.dataset, layer.name);
  const typed = present.filter((t): t is string => t !== null);
  const unknown = typed.filter((t) => !FAMILIES.some((f) => f.types.includes(t)));
  if (unknown.length) {
    throw new ToolError("INPUT_UNSUPPORTED", `Layer "${layer.name}" of "${opened.input.name}" holds ${unknown.join(", ")} geometries, which a shapefile cannot store`);
  }
  const used = FAMILIES.filter((f) => f.types.some((t) => typed.includes(t)));
  if (used.length <= 1) {
    const nlt = used[0]?.nlt?.(typed);
    return [[...(nlt ? ["-nlt", nlt] : []), layer.name]];
  }
  return used.map((family, i) => {
    const types = family.types.filter((t) => typed.includes(t));
    const nulls = i === 0 && present.includes(null) ? " OR OGR_GEOMETRY IS NULL" : "";
    const sql = `SELECT * FROM ${quoteLayer(layer.name)} WHERE OGR_GEOMETRY IN (${types.map((t) => `'${t}'`).join(",")})${nulls}`;
    const nlt = family.nlt?.(typed);
    return ["-sql", sql, "-dialect", "OGRSQL", "-nln", `${layer.name}_${family.suffix}`, ...(nlt ? ["-nlt", nlt] : [])];
  });
}

function assertPointsOnly(op: Operation, opened: OpenedVector, layers: LayerSummary[]): void {
  for (const layer of layers) {
    const types = presentGeometryTypes(op, opened.dataset, layer.name).filter((t) => t !== null);
    const other = types.filter((t) => t !== "POINT");
    if (other.length) {
      throw new ToolError("PARAMS_INVALID", `csvGeometry: "xy" needs point data, but layer "${layer.name}" holds ${other.join(", ")}; use "wkt"`);
    }
  }
}
