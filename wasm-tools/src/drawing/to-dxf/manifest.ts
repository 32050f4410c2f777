/** drawing.to-dxf: a DWG written as DXF by LibreDWG. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object({}, { additionalProperties: false });
export type Params = Static<typeof params>;

export const manifest = {
  slug: "drawing.to-dxf",
  family: "drawing",
  title: "DWG to DXF",
  description: "Writes a DWG drawing (AutoCAD R2.10, R13 to 2018) as an ASCII DXF of the same version with LibreDWG's DXF writer: header, tables, blocks, entities and objects, for programs that read DXF only.",
  io: { accepts: ["dwg"], produces: ["dxf"] },
  params,
  deterministic: true,
  // Memory per input byte: LibreDWG holds the drawing and writes the DXF in memory; the worker's
  // peak grew 17.2x the input's growth from a 0.1 to a 0.6 MB DWG (two different drawings: DWG
  // cannot be made in code) (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 300_000, memoryPerInputByte: 17.2 },
} satisfies ToolManifest;
