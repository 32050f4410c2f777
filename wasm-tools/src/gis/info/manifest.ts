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
  io: { accepts: [...VECTOR_FORMATS, "geotiff"], produces: ["json"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // Inputs and outputs stream through host files where the host has them (the server); a
  // GeoTIFF or a zipped shapefile is still read whole. 2 GB: the engine's 32-bit file offsets.
  // Memory per input byte: the worker's peak grew 1.3x the input's growth on 4 and 16 MB GeoJSON
  // mounted, as in the browser (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024 - 1, timeoutMs: 600_000, memoryPerInputByte: 1.3 },
} satisfies ToolManifest;
