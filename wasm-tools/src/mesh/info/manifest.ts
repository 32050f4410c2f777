/** mesh.info: what a triangle mesh holds, as JSON. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

export const params = Type.Object({}, { additionalProperties: false });
export type Params = Static<typeof params>;

export const manifest = {
  slug: "mesh.info",
  family: "mesh",
  title: "Mesh info",
  description: "Reports what an STL (ASCII or binary), OBJ, PLY, GLB, glTF or 3MF mesh holds as JSON: its format, parts, vertices (welded by position) and triangles, bounding box, whether it is watertight (every edge shared by exactly two triangles) and the unit where the format states one.",
  io: { accepts: ["stl", "obj", "ply", "glb", "gltf", "3mf"], produces: ["json"] },
  params,
  deterministic: true,
  // Memory per input byte: the mesh is held in memory; the worker's peak grew 10.8x the input's
  // growth on 5.7 and 23 MB ASCII STL (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 300_000, memoryPerInputByte: 10.8 },
} satisfies ToolManifest;
