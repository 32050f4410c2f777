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
  io: { accepts: ["ifc"], produces: ["json"] },
  params,
  deterministic: true,
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 600_000 },
} satisfies ToolManifest;
