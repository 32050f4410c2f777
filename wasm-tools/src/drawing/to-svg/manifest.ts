/** drawing.to-svg: a DWG or DXF drawing's model space as an SVG. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { background, layers, layout } from "../common/params";

export const params = Type.Object({ layout, layers, background }, { additionalProperties: false });
export type Params = Static<typeof params>;

export const manifest = {
  slug: "drawing.to-svg",
  family: "drawing",
  title: "Drawing to SVG",
  description: "Draws a DWG or DXF drawing's model space (or a named layout) as an SVG: lines, polylines with bulges, arcs, circles, ellipses, splines, hatches, solids, points, text and mtext, block inserts with their transforms and dimensions (their blocks), in entity, layer or block colours and line weights; one group per layer. Hidden and frozen layers are left out.",
  io: { accepts: ["dwg", "dxf"], produces: ["svg"] },
  params,
  deterministic: true,
  // Memory per input byte: the parsed drawing and its SVG text are held in memory; the worker's peak
  // grew 92.9x the input's growth on 1.2 and 4.9 MB DXF files (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 300_000, memoryPerInputByte: 92.9 },
} satisfies ToolManifest;
