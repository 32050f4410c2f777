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
  io: { accepts: ["ifc"], produces: ["json", "csv"] },
  params,
  deterministic: true,
  // Memory per input byte: web-ifc holds the model and the properties are gathered in memory; the
  // worker's peak grew 22.2x the input's growth on 2.5 and 10 MB IFC files (bun
  // bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 600_000, memoryPerInputByte: 22.2 },
} satisfies ToolManifest;
