/**
 * An IFC model's triangles, element by element: web-ifc streams each element's placed
 * geometries; each is moved by its flat transformation (normals by the inverse transpose,
 * winding flipped for mirroring placements) and merged into one primitive per colour. Geometries
 * without triangles are skipped. Coordinates are web-ifc's: metres, Y up.
 */
import { srgbToLinear } from "../../common/mesh/color";
import type { Primitive, Rgba } from "../../common/mesh/types";
import { paceGarbage } from "../../runtime/engine-garbage";
import type { IfcModel } from "./open";

/** One element's triangles, one primitive per colour, in the order the colours first appear. */
export interface ElementGeometry {
  expressId: number;
  primitives: Primitive[];
}

interface Piece {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
}

/** IFC surface colours are display (sRGB) values; glTF wants linear ones. Alpha stays as it is. */
function colorOf(c: { x: number; y: number; z: number; w: number }): Rgba {
  const a = Number.isFinite(c.w) ? Math.min(1, Math.max(0, c.w)) : 1;
  return { r: srgbToLinear(c.x), g: srgbToLinear(c.y), b: srgbToLinear(c.z), a };
}

/** Moves interleaved x,y,z,nx,ny,nz vertices by the column-major 4x4 `m` (exported for its unit test). */
export function place(vertices: Float32Array, source: Uint32Array, m: ArrayLike<number>): Piece {
  const n = Math.floor(vertices.length / 6);
  const positions = new Float32Array(3 * n);
  const normals = new Float32Array(3 * n);
  // Cofactors cRC of the upper 3x3 (row R, column C; m is column-major, so M[r][c] = m[4c + r]):
  // the cofactor matrix is the inverse transpose times the determinant, which is what normals need.
  const c00 = m[5] * m[10] - m[9] * m[6];
  const c01 = m[9] * m[2] - m[1] * m[10];
  const c02 = m[1] * m[6] - m[5] * m[2];
  const c10 = m[8] * m[6] - m[4] * m[10];
  const c11 = m[0] * m[10] - m[8] * m[2];
  const c12 = m[4] * m[2] - m[0] * m[6];
  const c20 = m[4] * m[9] - m[8] * m[5];
  const c21 = m[8] * m[1] - m[0] * m[9];
  const c22 = m[0] * m[5] - m[4] * m[1];
  const det = m[0] * c00 + m[4] * c01 + m[8] * c02;
  const sign = det < 0 ? -1 : 1;
  for (let v = 0; v < n; v++) {
    const x = vertices[6 * v];
    const y = vertices[6 * v + 1];
    const z = vertices[6 * v + 2];
    positions[3 * v] = m[0] * x + m[4] * y + m[8] * z + m[12];
    positions[3 * v + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
    positions[3 * v + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
    const nx = vertices[6 * v + 3];
    const ny = vertices[6 * v + 4];
    const nz = vertices[6 * v + 5];
    normals[3 * v] = sign * (c00 * nx + c01 * ny + c02 * nz);
    normals[3 * v + 1] = sign * (c10 * nx + c11 * ny + c12 * nz);
    normals[3 * v + 2] = sign * (c20 * nx + c21 * ny + c22 * nz);
  }
  const count = source.length - (source.length % 3);
  const indices = new Uint32Array(count);
  for (let t = 0; t < count; t += 3) {
    indices[t] = source[t];
    // A mirroring placement turns the triangles inside out; swapping two corners turns them back.
    indices[t + 1] = det < 0 ? source[t + 2] : source[t + 1];
    indices[t + 2] = det < 0 ? source[t + 1] : source[t + 2];
  }
  return { positions, normals, indices };
}

/** Concatenates pieces into one primitive. */
function merge(pieces: Piece[], color: Rgba): Primitive {
  if (pieces.length === 1) return { ...pieces[0], color };
  let vertexCount = 0;
  let indexCount = 0;
  for (const p of pieces) {
    vertexCount += p.positions.length / 3;
    indexCount += p.indices.length;
  }
  const positions = new Float32Array(3 * vertexCount);
  const normals = new Float32Array(3 * vertexCount);
  const indices = new Uint32Array(indexCount);
  let vertexAt = 0;
  let indexAt = 0;
  for (const p of pieces) {
    positions.set(p.positions, 3 * vertexAt);
    normals.set(p.normals, 3 * vertexAt);
    for (let i = 0; i < p.indices.length; i++) indices[indexAt + i] = p.indices[i] + vertexAt;
    vertexAt += p.positions.length / 3;
    indexAt += p.indices.length;
  }
  return { positions, normals, indices, color };
}

/** Every element with triangles, in web-ifc's streaming order. */
export function elementGeometries(model: IfcModel, onElement?: (done: number, total: number) => void): ElementGeometry[] {
  const out: ElementGeometry[] = [];
  streamElementGeometries(model, (geometry) => out.push(geometry), onElement);
  return out;
}

/**
 * Hands each element with triangles to `use` as web-ifc streams it (in its order), so a caller
 * that writes them out as they come need not keep them. `use` runs inside web-ifc's loop: it
 * must not wait for anything.
 */
export function streamElementGeometries(model: IfcModel, use: (geometry: ElementGeometry) => void, onElement?: (done: number, total: number) => void): void {
  const { api, id } = model;
  api.StreamAllMeshes(id, (mesh, index, total) => {
    const groups = new Map<string, { color: Rgba; pieces: Piece[] }>();
    const placed = mesh.geometries;
    for (let g = 0; g < placed.size(); g++) {
      paceGarbage();
      const pg = placed.get(g);
      const geometry = api.GetGeometry(id, pg.geometryExpressID);
      try {
        const indices = api.GetIndexArray(geometry.GetIndexData(), geometry.GetIndexDataSize());
        if (indices.length < 3) continue;
        const vertices = api.GetVertexArray(geometry.GetVertexData(), geometry.GetVertexDataSize());
        const color = colorOf(pg.color);
        const key = `${color.r},${color.g},${color.b},${color.a}`;
        let group = groups.get(key);
        if (!group) {
          group = { color, pieces: [] };
          groups.set(key, group);
        }
        group.pieces.push(place(vertices, indices, pg.flatTransformation));
      } finally {
        geometry.delete();
      }
    }
    if (groups.size) use({ expressId: mesh.expressID, primitives: [...groups.values()].map((g) => merge(g.pieces, g.color)) });
    onElement?.(index + 1, total);
  });
}

/** How many elements have triangles, and how many triangles there are, without keeping the arrays. */
export function countGeometry(model: IfcModel): { elements: number; triangles: number } {
  const { api, id } = model;
  let elements = 0;
  let triangles = 0;
  api.StreamAllMeshes(id, (mesh) => {
    let own = 0;
    const placed = mesh.geometries;
    for (let g = 0; g < placed.size(); g++) {
      paceGarbage();
      const geometry = api.GetGeometry(id, placed.get(g).geometryExpressID);
      own += Math.floor(geometry.GetIndexDataSize() / 3);
      geometry.delete();
    }
    if (own > 0) elements++;
    triangles += own;
  });
  return { elements, triangles };
}
