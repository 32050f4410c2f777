/** The GIS family's tools (gdal3.js: GDAL's ogr2ogr, gdal_translate, gdalwarp and the info utilities in WASM). */
import type { ToolEntry } from "../registry";
import { manifest as convert } from "./convert/manifest";
import { manifest as info } from "./info/manifest";
import { manifest as rasterConvert } from "./raster-convert/manifest";
import { manifest as reproject } from "./reproject/manifest";

/** One entry per tool folder. */
export const gisTools: ToolEntry[] = [
  { manifest: info, load: () => import("./info/run") },
  { manifest: convert, load: () => import("./convert/run") },
  { manifest: reproject, load: () => import("./reproject/run") },
  { manifest: rasterConvert, load: () => import("./raster-convert/run") },
];
