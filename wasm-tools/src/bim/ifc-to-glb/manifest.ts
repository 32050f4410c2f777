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
  // web-ifc holds the whole model, and the GLB is built in memory beside it: nothing streams. The
  // process's peak grew 12.1x the input's growth on 2.5 and 10 MB IFC files (bun
  // bench/tools-big/per-byte.ts), and 23-28x on models of walls made in code (bench/lib/big-ifc.ts)
  // of 60 to 200 MB (+1.7 GB at 60 MB, +3.5 GB at 150 MB, +5.7 GB at 200 MB). The limit keeps one job
  // within about 4.5 GB.
  limits: { maxInputBytes: 160 * 1024 * 1024, timeoutMs: 600_000, memoryPerInputByte: 28 },
} satisfies ToolManifest;
