/** gis.info: what a vector file or GeoTIFF holds, as JSON (GDAL's ogrinfo / gdalinfo). */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { VECTOR_FORMATS } from "../formats";

export const params = Type.Object({}, { additionalProperties: false });
export type Params = Static<typeof params>;

export const manifest = {
  slug: "gis.info",
  family: "gis",
  title: "GIS file info",
  description:
    "Reports what a GIS file holds, as JSON. Vector data: driver, layers with feature counts, declared and present geometry types, fields, extent and coordinate system (with its EPSG code when known). GeoTIFF: size, bands and their data types, geotransform, corner coordinates and coordinate system.",
  io: { accepts: [...VECTOR_FORMATS, "geotiff"], produces: ["json"] },
  params,
  deterministic: true,
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 60_000 },
} satisfies ToolManifest;
