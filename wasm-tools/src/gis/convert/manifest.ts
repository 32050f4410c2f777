/** gis.convert: vector data from one format into another (GDAL's ogr2ogr). */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { VECTOR_FORMATS } from "../formats";

export const params = Type.Object(
  {
    to: Type.Union(
      VECTOR_FORMATS.map((f) => Type.Literal(f)),
      { default: "geojson", description: "Target format: geojson, gpkg, shapefile-zip, kml, csv, flatgeobuf or dxf" },
    ),
    layer: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "Convert only this layer (default: every layer)" })),
    csvGeometry: Type.Union([Type.Literal("wkt"), Type.Literal("xy")], {
      default: "wkt",
      description: "CSV output only: geometry as a WKT column, or as X and Y columns (point data only)",
    }),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "gis.convert",
  family: "gis",
  title: "Convert GIS vector data",
  description:
    "Converts vector data between GeoJSON, GeoPackage, Shapefile (ZIP), KML, CSV (WKT or x/y columns), FlatGeobuf and DXF, keeping attributes and the coordinate system where the target can hold them. Formats with one layer per file (GeoJSON, CSV, FlatGeobuf, DXF) give one file per layer; a shapefile layer mixing points, lines and polygons is split into one shapefile per geometry kind.",
  io: { accepts: [...VECTOR_FORMATS], produces: [...VECTOR_FORMATS], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // Inputs and outputs stream through host files where the host has them (the server); a
  // GeoTIFF or a zipped shapefile is still read whole. 2 GB: the engine's 32-bit file offsets.
  // Memory per input byte: the worker's peak grew 2.7x the input's growth converting 4 and 16 MB
  // GeoJSON to GeoPackage with the input mounted and the output in memory, as in the browser (0.1x
  // to CSV) (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024 - 1, timeoutMs: 1_200_000, memoryPerInputByte: 2.7 },
} satisfies ToolManifest;
