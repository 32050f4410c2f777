/** pcb.info: what a set of fabrication files contains: layers, board size, drill holes (JSON). */
import { Type, type Static } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { BackupUnits } from "../common/params";

export const params = Type.Object(
  {
    backupUnits: BackupUnits,
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pcb.info",
  family: "pcb",
  title: "PCB info",
  description: "Reports what a ZIP of Gerber and drill files (or a single such file) contains: each layer's type and side, the board size in mm (from the outline layer, else from everything drawn) and the drill holes by size.",
  io: { accepts: ["gerber-zip", "zip", "gerber", "excellon"], produces: ["json"] },
  params,
  deterministic: true,
  // Memory per input byte: the parsed layers are held in memory; the worker's peak grew 30x the
  // input's growth on 1.7 and 7 MB board ZIPs (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 128 * 1024 * 1024, timeoutMs: 120_000, memoryPerInputByte: 30 },
} satisfies ToolManifest;
