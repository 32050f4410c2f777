/** bim.ifc-info: schema, header, element counts per type and the spatial tree of an IFC model, as JSON. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object({}, { additionalProperties: false });
export type Params = Static<typeof params>;

export const manifest = {
  slug: "bim.ifc-info",
  family: "bim",
  title: "IFC model info",
  description: "Reports what an IFC model holds as JSON: its schema and header (authoring application, date), how many elements of each IFC type it has, its spatial tree (project, sites, buildings, storeys with names and elevations) and how many elements have geometry.",
  io: { accepts: ["ifc"], produces: ["json"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // web-ifc holds the whole model: nothing streams. The process's peak grew 7.7x the input's growth
  // on 2.5 and 10 MB IFC files (bun bench/tools-big/per-byte.ts) and 7.1-7.4x on models of walls
  // made in code (bench/lib/big-ifc.ts) of 300 and 511 MB (+2.2 and +3.6 GB): the 512 MB limit
  // keeps one job within about 4 GB.
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 600_000, memoryPerInputByte: 7.7 },
} satisfies ToolManifest;
