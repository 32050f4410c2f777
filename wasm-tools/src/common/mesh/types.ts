/**
 * The triangle-mesh model the GLB, STL and OBJ writers share: what the CAD and BIM families
 * produce from their libraries' arrays. Pure data, no library types, so the writers can be
 * tested on their own and reused by any family that meshes something.
 */

/** A colour in linear RGB (glTF's baseColorFactor space), each channel and alpha in 0..1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/**
 * Triangles of one colour. `positions` and `normals` hold x,y,z per vertex; `indices` three
 * vertex numbers per triangle. Primitives of one part may share the same `positions` array
 * (the GLB writer then stores it once).
 */
export interface Primitive {
  positions: Float32Array;
  normals?: Float32Array;
  indices: Uint32Array;
  color: Rgba;
}

/** Extra facts carried into glTF `extras` (JSON values only). */
export type Extras = Record<string, string | number | boolean | null>;

/** One named part (a CAD solid, an IFC element): one glTF mesh, one OBJ object. */
export interface MeshPart {
  name: string;
  primitives: Primitive[];
  extras?: Extras;
}

/** A node of the scene tree: a named group, optionally showing one part (by index into `parts`). */
export interface SceneNode {
  name: string;
  part?: number;
  children?: SceneNode[];
  extras?: Extras;
}

/** What the writers take: the parts and, optionally, how they are grouped (default: one node per part). */
export interface MeshScene {
  parts: MeshPart[];
  roots?: SceneNode[];
}

/** Triangles in one primitive. */
export function primitiveTriangles(p: Primitive): number {
  return Math.floor(p.indices.length / 3);
}

/** Triangles in a part. */
export function partTriangles(part: MeshPart): number {
  let n = 0;
  for (const p of part.primitives) n += primitiveTriangles(p);
  return n;
}

/** Triangles in the whole scene. */
export function sceneTriangles(scene: MeshScene): number {
  let n = 0;
  for (const part of scene.parts) n += partTriangles(part);
  return n;
}

/** Grey for parts without a colour of their own (0.8 in sRGB). */
export const DEFAULT_COLOR: Rgba = { r: 0.603827, g: 0.603827, b: 0.603827, a: 1 };
