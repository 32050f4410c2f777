/** gis.raster-convert: a GeoTIFF into PNG, JPEG or a Cloud Optimized GeoTIFF (gdal_translate). */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object(
  {
    to: Type.Union([Type.Literal("png"), Type.Literal("jpeg"), Type.Literal("cog")], {
      default: "png",
      description: "Target: png, jpeg, or cog (Cloud Optimized GeoTIFF: tiled, DEFLATE-compressed, with overviews)",
    }),
    quality: Type.Integer({ minimum: 1, maximum: 100, default: 85, description: "JPEG quality (1-100)" }),
    scale: Type.Union([Type.Literal("auto"), Type.Literal("always"), Type.Literal("never")], {
      default: "auto",
      description: "Stretch values to 8-bit (0-255) from each band's min/max: auto = when the target cannot hold the data type (JPEG: anything but 8-bit; PNG: anything but 8/16-bit unsigned)",
    }),
    bands: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 65_535 }), { minItems: 1, maxItems: 4, description: "Bands to keep, in order (1-based), e.g. [3, 2, 1]" }),
    ),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "gis.raster-convert",
  family: "gis",
  title: "Convert GeoTIFF",
  description:
    "Converts a GeoTIFF into a PNG or JPEG image, or into a Cloud Optimized GeoTIFF (keeping its georeferencing). Values that the target cannot hold (16-bit, floating point) are stretched to 8-bit from the data's min/max; bands can be picked and reordered.",
  io: { accepts: ["geotiff"], produces: ["png", "jpeg", "geotiff"] },
  params,
  deterministic: true,
  // Memory per input byte: gdal_translate reads the GeoTIFF from memory; the worker's peak grew 3.1x
  // the input's growth converting 3 and 12 MB GeoTIFFs to PNG (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 180_000, memoryPerInputByte: 3.1 },
} satisfies ToolManifest;
