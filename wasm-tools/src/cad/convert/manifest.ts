/** cad.convert: STEP, IGES or BREP to a triangle mesh (GLB, binary STL or OBJ). */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { angularDeflection, linearDeflection } from "../common/params";

export const params = Type.Object(
  {
    format: Type.Union([Type.Literal("glb"), Type.Literal("stl"), Type.Literal("obj")], {
      default: "glb",
      description: "glb: glTF binary, one named mesh per part with its colours and the assembly tree; stl: binary STL, all parts merged; obj: Wavefront OBJ, one object per part, no colours",
    }),
    linearDeflection,
    angularDeflection,
    unit: Type.Optional(
      Type.Union([Type.Literal("mm"), Type.Literal("cm"), Type.Literal("m"), Type.Literal("in")], {
        description: "Unit of the output coordinates. Default: m for GLB (glTF's unit), mm for STL and OBJ. BREP files carry no unit and are taken as millimetres.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "cad.convert",
  family: "cad",
  title: "Convert CAD to mesh",
  description: "Converts a STEP, IGES or OpenCascade BREP model into a triangle mesh: GLB (glTF binary) with one named mesh per part, its colours and assembly structure, binary STL, or OBJ. The mesh fineness can be set.",
  io: { accepts: ["step", "iges", "brep"], produces: ["glb", "stl", "obj"] },
  params,
  deterministic: true,
  // Memory per input byte: OCCT holds the model and its mesh; the worker's peak grew 20.1x the
  // input's growth converting 0.9 and 3.5 MB STEP assemblies to GLB (bun
  // bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 256 * 1024 * 1024, timeoutMs: 300_000, memoryPerInputByte: 20.1 },
} satisfies ToolManifest;
