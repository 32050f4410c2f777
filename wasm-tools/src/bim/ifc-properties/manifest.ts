/** bim.ifc-properties: every element's GlobalId, type, Name and property sets, as JSON or CSV. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object(
  {
    format: Type.Union([Type.Literal("json"), Type.Literal("csv")], {
      default: "json",
      description: "json: one object per element with its property sets; csv: one row per property (GlobalId, type, Name, set, property, value), one row for an element without properties",
    }),
    includeTypeProperties: Type.Boolean({ default: true, description: "Also list the property sets an element gets from its type object (IfcWallType ...)" }),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "bim.ifc-properties",
  family: "bim",
  title: "IFC properties",
  description: "Lists every element of an IFC model (walls, doors, spaces, storeys ...) with its GlobalId, IFC type, Name and all its property and quantity sets, as JSON or as a flat CSV table for spreadsheets.",
  io: { accepts: ["ifc"], produces: ["json", "csv"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // web-ifc holds the whole model and the properties are gathered in memory: nothing streams. The
  // process's peak grew 22.2x the input's growth on 2.5 and 10 MB IFC files (bun
  // bench/tools-big/per-byte.ts) and 12.7x (+2.6 GB) on a 200 MB model of walls made in code
  // (bench/lib/big-ifc.ts). The limit keeps one job within about 4 GB.
  limits: { maxInputBytes: 300 * 1024 * 1024, timeoutMs: 600_000, memoryPerInputByte: 22.2 },
} satisfies ToolManifest;
