/** pcb.gerber-to-svg: one Gerber or Excellon drill file -> an SVG of that layer (gerber-to-svg). */
import { Type, type Static } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { BackupUnits, CssColor } from "../common/params";

export const params = Type.Object(
  {
    color: Type.Optional({ ...CssColor, description: "Colour of the layer's image (default: currentColor, i.e. black on most viewers)" }),
    plotAsOutline: Type.Boolean({
      default: false,
      description: "Plot the file as a board outline: join the strokes into closed paths, closing gaps up to outlineGapFill",
    }),
    outlineGapFill: Type.Number({ exclusiveMinimum: 0, maximum: 1, default: 0.00011, description: "With plotAsOutline: largest gap in mm to close" }),
    optimizePaths: Type.Boolean({ default: false, description: "Reorder strokes into connected paths (smaller SVG, slower)" }),
    backupUnits: BackupUnits,
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pcb.gerber-to-svg",
  family: "pcb",
  title: "Gerber to SVG",
  description: "Renders one PCB fabrication file (a Gerber RS-274X layer or an Excellon drill file) as an SVG drawing at its real size, in the file's units.",
  io: { accepts: ["gerber", "excellon"], produces: ["svg"] },
  params,
  deterministic: true,
  // Memory per input byte: the parsed layer and its SVG are held in memory; the worker's peak grew
  // 36.2x the input's growth on 1.7 and 7 MB Gerber layers (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 64 * 1024 * 1024, timeoutMs: 120_000, memoryPerInputByte: 36.2 },
} satisfies ToolManifest;
