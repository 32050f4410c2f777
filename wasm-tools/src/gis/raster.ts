/**
 * GeoTIFF inputs, the same way for every raster tool: checked, staged, opened with the GTiff
 * driver only and summarised from gdalinfo (size, bands, data types, geotransform, CRS).
 */
import { ToolError, type ToolInput } from "@vektor/shared/tools/manifest";
import { errorMessage } from "../runtime/context";
import { summariseCrs, type CrsSummary } from "./crs";
import { GdalError, type Dataset, type Operation } from "./engine";
import { detectFormat } from "./formats";
import { wholeInput } from "./host-files";
import { assertCompleteTiff } from "./tiff";

/** One band, as the tools report it. */
export interface BandSummary {
  band: number;
  dataType: string;
  colorInterpretation: string | null;
  noData: number | string | null;
  block: [number, number] | null;
}

/** A raster, as the tools report it. */
export interface RasterSummary {
  driver: string;
  driverLongName: string;
  width: number;
  height: number;
  bands: BandSummary[];
  /** GDAL's affine geotransform [originX, pixelWidth, rowRotation, originY, colRotation, pixelHeight], or null. */
  geoTransform: number[] | null;
  crs: CrsSummary | null;
  /** Upper-left, lower-left, lower-right, upper-right and centre, in the raster's CRS (pixel corners without a geotransform). */
  cornerCoordinates: Record<string, number[]> | null;
  /** Image structure: compression, interleave, COG layout. */
  imageStructure: Record<string, string>;
}

interface GdalInfoJson {
  driverShortName?: string;
  driverLongName?: string;
  size?: [number, number];
  geoTransform?: number[];
  coordinateSystem?: { wkt?: string };
  stac?: { "proj:epsg"?: number | null };
  cornerCoordinates?: Record<string, number[]>;
  metadata?: { IMAGE_STRUCTURE?: Record<string, string> };
  bands?: { band: number; type: string; colorInterpretation?: string; noDataValue?: number | string; block?: [number, number] }[];
}

/** A raster input opened in an operation. */
export interface OpenedRaster {
  input: ToolInput;
  dataset: Dataset;
  info: RasterSummary;
  explain(message: string): string;
}

/** Checks, stages and opens a GeoTIFF input. */
export function openRaster(op: Operation, given: ToolInput, purpose: string): OpenedRaster {
  detectFormat(given, ["geotiff"] as const, purpose);
  // The TIFF check reads the whole file: a GeoTIFF is held in memory (rasters are rarely the big inputs).
  const input = wholeInput(op, given);
  assertCompleteTiff(input);
  const path = op.write("in/input.tif", input.bytes);
  const explain = (message: string) => message.replaceAll(path, input.name).replaceAll(`${op.dir}/`, "").trim();
  let dataset: Dataset;
  try {
    dataset = op.openDataset(path, { kind: "raster", drivers: ["GTiff"] });
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `"${input.name}" could not be read as GeoTIFF (damaged or truncated?): ${explain(errorMessage(err))}`);
  }
  let json: GdalInfoJson;
  try {
    json = op.rasterInfo(dataset) as GdalInfoJson;
  } catch (err) {
    if (!(err instanceof GdalError)) throw err;
    throw new ToolError("INPUT_INVALID", `"${input.name}" is damaged or truncated: ${explain(err.message)}`);
  }
  const [width, height] = json.size ?? [0, 0];
  if (!width || !height || !json.bands?.length) throw new ToolError("INPUT_EMPTY", `"${input.name}" has no pixels (size ${width}x${height}, ${json.bands?.length ?? 0} bands)`);
  const crs = summariseCrs(json.coordinateSystem);
  if (crs && crs.epsg === null && json.stac?.["proj:epsg"]) crs.epsg = json.stac["proj:epsg"];
  const info: RasterSummary = {
    driver: json.driverShortName ?? "GTiff",
    driverLongName: json.driverLongName ?? "GeoTIFF",
    width,
    height,
    bands: json.bands.map((b) => ({
      band: b.band,
      dataType: b.type,
      colorInterpretation: b.colorInterpretation ?? null,
      noData: b.noDataValue ?? null,
      block: b.block ?? null,
    })),
    geoTransform: json.geoTransform ?? null,
    crs,
    cornerCoordinates: json.cornerCoordinates ?? null,
    imageStructure: json.metadata?.IMAGE_STRUCTURE ?? {},
  };
  return { input, dataset, info, explain };
}

/** Runs a raster utility, mapping GDAL's failure to INPUT_INVALID with the input's name. */
export function rasterStep(opened: OpenedRaster, what: string, step: () => void): void {
  try {
    step();
  } catch (err) {
    if (!(err instanceof GdalError)) throw err;
    throw new ToolError("INPUT_INVALID", `"${opened.input.name}" could not be ${what}: ${opened.explain(err.message)}`);
  }
}
