/** gis.reproject: vector data or a GeoTIFF into another coordinate reference system (ogr2ogr / gdalwarp). */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

/** Formats reprojected in place (KML is always WGS 84, so it has nothing to reproject into). */
export const REPROJECT_FORMATS = ["geojson", "gpkg", "shapefile-zip", "csv", "flatgeobuf", "dxf", "geotiff"] as const;

/** gdalwarp's resampling methods offered for GeoTIFFs. */
export const RESAMPLING = ["near", "bilinear", "cubic", "cubicspline", "lanczos", "average", "mode"] as const;

const epsg = (description: string, extra: { default?: number } = {}) => Type.Integer({ minimum: 1024, maximum: 999_999, description, ...extra });

export const params = Type.Object(
  {
    to: epsg("Target EPSG code, e.g. 4326 (WGS 84), 3857 (Web Mercator), 25832 (ETRS89 / UTM 32N)", { default: 4326 }),
    from: Type.Optional(epsg("Source EPSG code: needed when the input has no coordinate system (CSV, DXF, a shapefile without .prj); overrides a wrong one")),
    resampling: Type.Union(
      RESAMPLING.map((r) => Type.Literal(r)),
      { default: "near", description: "GeoTIFF only: how pixel values are resampled" },
    ),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "gis.reproject",
  family: "gis",
  title: "Reproject GIS data",
  description:
    "Transforms the coordinates of vector data (GeoJSON, GeoPackage, Shapefile ZIP, CSV, FlatGeobuf, DXF) or a GeoTIFF into another coordinate reference system given by its EPSG code, keeping the format. Data without a coordinate system needs the source EPSG code.",
  io: { accepts: [...REPROJECT_FORMATS], produces: [...REPROJECT_FORMATS], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // Inputs and outputs stream through host files where the host has them (the server); a
  // GeoTIFF or a zipped shapefile is still read whole. 2 GB: the engine's 32-bit file offsets.
  // Memory per input byte: the worker's peak grew 4.6x the input's growth reprojecting 4 and 16 MB
  // GeoJSON to EPSG:3857 with the input mounted and the GeoJSON output in memory, as in the browser
  // (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024 - 1, timeoutMs: 1_200_000, memoryPerInputByte: 4.6 },
} satisfies ToolManifest;
