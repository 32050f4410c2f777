/** gis.raster-convert with gdal_translate: band choice, 8-bit stretching where needed, the target's driver. */
import { ToolError, type ToolRun } from "@vektor/shared/tools/manifest";
import { stem } from "../../runtime/context";
import { outputFolder } from "../host-files";
import { withGdal } from "../init";
import { openRaster, rasterStep, type RasterSummary } from "../raster";
import type { Params } from "./manifest";

type Target = Params["to"];

const TARGET = {
  png: { driver: "PNG", title: "PNG", suffix: ".png", format: "png", types: ["Byte", "UInt16"], bandCounts: [1, 2, 3, 4] },
  jpeg: { driver: "JPEG", title: "JPEG", suffix: ".jpg", format: "jpeg", types: ["Byte"], bandCounts: [1, 3] },
  cog: { driver: "COG", title: "COG", suffix: "-cog.tif", format: "geotiff", types: null, bandCounts: null },
} as const;

/**
 * The bands to write when none were asked for: all of them, except that JPEG drops an alpha band
 * it cannot store. Throws PARAMS_INVALID when the target cannot take the band count.
 */
export function chooseBands(info: RasterSummary, to: Target, asked: number[] | undefined, name: string): number[] {
  const count = info.bands.length;
  const target = TARGET[to];
  if (asked) {
    const missing = asked.filter((b) => b > count);
    if (missing.length) throw new ToolError("PARAMS_INVALID", `bands: "${name}" has ${count} band${count === 1 ? "" : "s"}; there is no band ${missing.join(", ")}`);
  }
  let bands = asked ?? info.bands.map((b) => b.band);
  if (!asked && to === "jpeg" && (count === 2 || count === 4) && info.bands[count - 1].colorInterpretation === "Alpha") bands = bands.slice(0, -1);
  const allowed: readonly number[] | null = target.bandCounts;
  if (allowed && !allowed.includes(bands.length)) {
    throw new ToolError(
      "PARAMS_INVALID",
      `bands: ${target.title} holds ${allowed.join(" or ")} bands, and ${asked ? "bands lists" : `"${name}" has`} ${bands.length}; choose them with bands, e.g. ${bands.length > 3 ? "[1, 2, 3]" : "[1]"}`,
    );
  }
  return bands;
}

/** gdal_translate options for a conversion (exported for the tests). */
export function translateArgs(info: RasterSummary, params: Params, name: string): string[] {
  const target = TARGET[params.to];
  const bands = chooseBands(info, params.to, params.bands, name);
  const types = [...new Set(bands.map((b) => info.bands[b - 1].dataType))];
  const allowed: readonly string[] | null = target.types;
  const storable = !allowed || types.every((t) => allowed.includes(t));
  if (!storable && params.scale === "never") {
    throw new ToolError("PARAMS_INVALID", `scale: ${target.title} cannot hold ${types.join("/")} values; allow scaling to 8-bit (scale "auto" or "always")`);
  }
  const args = ["-of", target.driver, ...bands.flatMap((b) => ["-b", String(b)])];
  if (params.scale === "always" || !storable) args.push("-ot", "Byte", "-scale");
  else if (types.length > 1 && params.to === "png") args.push("-ot", "UInt16");
  if (params.to === "jpeg") args.push("-co", `QUALITY=${params.quality}`);
  if (params.to === "cog") args.push("-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=YES", "-co", "OVERVIEWS=AUTO");
  return args;
}

export const run: ToolRun<Params> = async ([input], params, ctx) =>
  withGdal(ctx, async (op) => {
    const opened = openRaster(op, input, "gis.raster-convert");
    const target = TARGET[params.to];
    const args = translateArgs(opened.info, params, input.name);
    ctx.onProgress(0.2, `writing ${target.title}`);
    const file = `out${target.suffix}`;
    const out = await outputFolder(op, { outputFolder: ctx.outputFolder }, [file]);
    rasterStep(opened, `converted to ${target.title}`, () => op.translate(`${out.dir}/${file}`, opened.dataset, args));
    return [await out.output(`${out.dir}/${file}`, `${stem(input.name)}${target.suffix}`, target.format)];
  });
