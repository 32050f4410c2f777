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
  // reads the file through a callback from the host file or the picked File. On the server (an
  // output folder) each element's buffer views and the JSON of its mesh, accessors and views go to
  // temporary files there as web-ifc streams the meshes, and the GLB is put together from them at
  // the end (common/mesh/glb-output.ts): on models of walls made in code (wasm-tools/src/testing/big-ifc.ts,
  // the worst case: each wall a small mesh, the GLB 1.8x the IFC) the process grew 4.2x the input at
  // 162 MB (+685 MB), 3.4x at 312 MB (+1.05 GB), 3.9x at 996 MB (+3.9 GB, 3 min), 3.8-3.9 per input
  // byte between 40 and 162 MB (bun bench/tools-big/per-byte.ts, PER_BYTE_ONLY=walls); before,
  // 8.6-9.3x (+2.8 GB at 306 MB). The limit keeps a server job within about 4 GB.
  // In the browser (no output folder) every element's triangles are kept until the GLB is written
  // in memory: 9.3x the input on walls, the figure stated here, which the browser checks a file
  // against before running it on the device (1.5x on 10 and 41 MB copies of FZK-Haus).
  limits: { maxInputBytes: 1024 * 1024 * 1024, timeoutMs: 600_000, memoryPerInputByte: 9.3 },
} satisfies ToolManifest;
