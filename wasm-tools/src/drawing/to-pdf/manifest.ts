/** drawing.to-pdf: a DWG or DXF drawing's model space as a vector PDF fitted to a paper size. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { layers, layout } from "../common/params";

export const params = Type.Object(
  {
    layout,
    layers,
    paper: Type.Union([Type.Literal("A4"), Type.Literal("A3"), Type.Literal("A2"), Type.Literal("A1"), Type.Literal("A0"), Type.Literal("letter"), Type.Literal("auto")], {
      default: "A4",
      description: "Paper size; auto: a page of the drawing's proportions, 1000 pt on its long side",
    }),
    orientation: Type.Union([Type.Literal("auto"), Type.Literal("portrait"), Type.Literal("landscape")], { default: "auto", description: "auto: landscape when the drawing is wider than tall" }),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "drawing.to-pdf",
  family: "drawing",
  title: "Drawing to PDF",
  description: "Draws a DWG or DXF drawing's model space as a one-page vector PDF, fitted with a margin to the paper size (A4 to A0, letter, or auto) and orientation: the same lines, fills, colours, line weights and text as drawing.to-svg.",
  io: { accepts: ["dwg", "dxf"], produces: ["pdf"] },
  params,
  deterministic: true,
  // Memory per input byte: the parsed drawing and its PDF are held in memory; the worker's peak grew
  // 74.7x the input's growth on 1.2 and 4.9 MB DXF files (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 300_000, memoryPerInputByte: 74.7 },
} satisfies ToolManifest;
