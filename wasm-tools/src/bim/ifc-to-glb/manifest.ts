/** bim.ifc-to-glb: an IFC building model as a GLB scene (one mesh per element, grouped by storey). */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object(
  {
    coordinateToOrigin: Type.Boolean({
      default: false,
      description: "Move the model next to the origin. Use it for georeferenced models whose large coordinates lose precision in GLB's 32-bit floats.",
    }),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "bim.ifc-to-glb",
  family: "bim",
  title: "IFC to GLB",
  description: "Converts an IFC building model (IFC2X3, IFC4, IFC4X3) into a GLB (glTF binary) scene: one mesh per building element with its IFC colours, named after the element, grouped under project, site, building and storey nodes, with each element's GlobalId and IFC type in its extras. Metres, Y up.",
  io: { accepts: ["ifc"], produces: ["glb"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // web-ifc holds the whole model (its token tape, about the file's size, and its line index), but
  // reads the file through a callback from the host file or the picked File; every element's
  // triangles are kept until the GLB is written (the scene needs them all), and the GLB is built
  // in memory, its buffer views and JSON written straight into it. The process's peak grew 9.3x the
  // input on models of walls made in code (bench/lib/big-ifc.ts), the worst case (each wall a small
  // mesh, the GLB 1.8x the IFC): +1.4 GB at 152 MB, +2.8 GB at 306 MB (23-28x before);
  // 1.5x the input's growth on 10 and 41 MB copies of FZK-Haus (bun bench/tools-big/per-byte.ts,
  // PER_BYTE_SCALE=4; 8.3x at 2.5 and 10 MB, where the engine's first allocations weigh more). The
  // limit keeps one job within about 4 GB.
  limits: { maxInputBytes: 384 * 1024 * 1024, timeoutMs: 600_000, memoryPerInputByte: 9.3 },
} satisfies ToolManifest;
