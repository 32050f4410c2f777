/** mesh.convert: a triangle mesh from one format to another. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object(
  {
    to: Type.Union([Type.Literal("stl"), Type.Literal("obj"), Type.Literal("ply"), Type.Literal("glb"), Type.Literal("gltf"), Type.Literal("3mf")], {
      default: "glb",
      description: "Target format: stl (binary unless stlAscii), obj, ply (binary), glb, gltf (one JSON file, buffer embedded) or 3mf",
    }),
    stlAscii: Type.Boolean({ default: false, description: "With to=stl: write ASCII STL instead of binary" }),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "mesh.convert",
  family: "mesh",
  title: "Convert mesh",
  description: "Converts a triangle mesh between STL (ASCII or binary), OBJ, PLY, GLB, glTF and 3MF. Coordinates are copied as they are (no unit change); parts become glTF meshes, OBJ objects and 3MF objects where the target keeps them, and are merged for STL and PLY.",
  io: { accepts: ["stl", "obj", "ply", "glb", "gltf", "3mf"], produces: ["stl", "obj", "ply", "glb", "gltf", "3mf"] },
  params,
  deterministic: true,
  // Memory per input byte: the mesh is held in memory; the worker's peak grew 8.4x the input's
  // growth converting 5.7 and 23 MB ASCII STL to GLB (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 300_000, memoryPerInputByte: 8.4 },
} satisfies ToolManifest;
