/** drawing.info: what a DWG or DXF drawing holds, as JSON. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object({}, { additionalProperties: false });
export type Params = Static<typeof params>;

export const manifest = {
  slug: "drawing.info",
  family: "drawing",
  title: "Drawing info",
  description: "Reports what a DWG (AutoCAD R2.10 to 2018 and later, via LibreDWG) or DXF (ASCII or binary) drawing holds as JSON: its version, units, extents, layers (name, colour, on/off, frozen, entity count), blocks, layouts and the model space's entity counts by type.",
  io: { accepts: ["dwg", "dxf"], produces: ["json"] },
  params,
  deterministic: true,
  // Memory per input byte: the parsed drawing is held in memory; the worker's peak grew 31x the
  // input's growth on 1.2 and 4.9 MB DXF files (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 300_000, memoryPerInputByte: 31 },
} satisfies ToolManifest;
