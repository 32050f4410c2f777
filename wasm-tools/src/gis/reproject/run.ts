/** gis.reproject: ogr2ogr -t_srs for vector data (same format out), gdalwarp -t_srs for a GeoTIFF. */
import { ToolError, type RunContext, type ToolInput, type ToolOutput, type ToolRun } from "@vektor/shared/tools/manifest";
import { stem } from "../../runtime/context";
import { assertKnownEpsg, isTransformFailure } from "../crs";
import type { Operation } from "../engine";
import { csvGeometryStyle, detectFormat, type VectorFormat } from "../formats";
import { outputFolder } from "../host-files";
import { withGdal } from "../init";
import { openRaster, rasterStep } from "../raster";
import { openVector, selectLayers, writeVector } from "../vector";
import { REPROJECT_FORMATS, type Params } from "./manifest";

const PURPOSE = "gis.reproject";

export const run: ToolRun<Params> = async ([input], params, ctx) =>
  withGdal(ctx, (op) => {
    for (const [param, code] of Object.entries({ to: params.to, from: params.from })) {
      if (code !== undefined) assertKnownEpsg(op, code, param);
    }
    const format = detectFormat(input, REPROJECT_FORMATS, PURPOSE);
    ctx.onProgress(0.1, "transforming");
    return format === "geotiff" ? reprojectRaster(op, input, params, ctx) : reprojectVector(op, input, format, params, ctx);
  });

const sourceArgs = (from: number | undefined) => (from === undefined ? [] : ["-s_srs", `EPSG:${from}`]);

function noCrs(input: ToolInput, what: string): ToolError {
  return new ToolError("PARAMS_INVALID", `from: "${input.name}" has no coordinate reference system${what}; give the source EPSG code as from (e.g. 4326 for longitude/latitude)`);
}

function reprojectVector(op: Operation, input: ToolInput, format: VectorFormat, params: Params, place: RunContext): Promise<ToolOutput[]> {
  const opened = openVector(op, input, [format], PURPOSE);
  const layers = selectLayers(opened, undefined);
  const bare = layers.find((l) => l.geometryType !== null && l.crs === null);
  if (bare && params.from === undefined) throw noCrs(input, opened.layers.length > 1 ? ` (layer "${bare.name}")` : "");
  const to = params.to;
  return writeVector(op, opened, {
    target: format,
    layers,
    args: [...sourceArgs(params.from), "-t_srs", `EPSG:${to}`],
    outputStem: `${stem(input.name)}-epsg${to}`,
    csvGeometry: format === "csv" ? csvGeometryStyle(input.bytes) : undefined,
    place,
    onFailure: (message) =>
      isTransformFailure(message)
        ? new ToolError("INPUT_INVALID", `The coordinates of "${input.name}" could not be transformed to EPSG:${to}: ${message}`)
        : undefined,
  });
}

/** The warped raster goes to the browser's disk where it has one, else memory (not the host's folder: a GeoTIFF is read whole anyway). */
async function reprojectRaster(op: Operation, input: ToolInput, params: Params, place: RunContext): Promise<ToolOutput[]> {
  const opened = openRaster(op, input, PURPOSE);
  if (!opened.info.crs && params.from === undefined) throw noCrs(input, "");
  if (!opened.info.geoTransform) throw new ToolError("INPUT_INVALID", `"${input.name}" has no georeferencing (no geotransform), so it cannot be reprojected`);
  const out = await outputFolder(op, { outputFolder: place.outputFolder }, ["warped.tif"]);
  const dest = `${out.dir}/warped.tif`;
  const args = ["-of", "GTiff", ...sourceArgs(params.from), "-t_srs", `EPSG:${params.to}`, "-r", params.resampling, "-co", "COMPRESS=DEFLATE", "-co", "TILED=YES"];
  rasterStep(opened, `reprojected to EPSG:${params.to}`, () => op.warp(dest, opened.dataset, args));
  return [await out.output(dest, `${stem(input.name)}-epsg${params.to}.tif`, "geotiff")];
}
