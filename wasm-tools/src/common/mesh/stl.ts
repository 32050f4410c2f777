/**
 * A binary STL writer: 80-byte header (never starting with "solid", which readers take for
 * ASCII STL), the triangle count, then 50 bytes per triangle (facet normal from the vertices,
 * three corners, a zero attribute word). STL has no parts, names or colours; all are merged.
 */
import type { MeshScene } from "./types";

/** How the file is written. */
export interface StlOptions {
  /** Header text (ASCII; cut to 80 bytes). */
  header: string;
  /** Multiplies every position. */
  scale?: number;
}

/** Size of a binary STL with `triangles` facets. */
export function stlSize(triangles: number): number {
  return 84 + 50 * triangles;
}

/** Writes every triangle of `scene` as binary STL bytes. */
export function writeStl(scene: MeshScene, options: StlOptions): Uint8Array {
  const scale = options.scale ?? 1;
  let count = 0;
  for (const part of scene.parts) for (const p of part.primitives) count += Math.floor(p.indices.length / 3);
  const out = new Uint8Array(stlSize(count));
  const view = new DataView(out.buffer);
  let header = options.header.replace(/[^\x20-\x7e]/g, "?");
  if (/^solid/i.test(header)) header = `binary ${header}`;
  for (let i = 0; i < Math.min(80, header.length); i++) out[i] = header.charCodeAt(i);
  out.fill(0x20, Math.min(80, header.length), 80);
  view.setUint32(80, count, true);

  let at = 84;
  const corner = new Float32Array(9);
  for (const part of scene.parts) {
    for (const p of part.primitives) {
      const { positions, indices } = p;
      const triangles = Math.floor(indices.length / 3);
      for (let t = 0; t < triangles; t++) {
        for (let k = 0; k < 3; k++) {
          const v = indices[3 * t + k] * 3;
          corner[3 * k] = positions[v] * scale;
          corner[3 * k + 1] = positions[v + 1] * scale;
          corner[3 * k + 2] = positions[v + 2] * scale;
        }
        const [nx, ny, nz] = facetNormal(corner);
        view.setFloat32(at, nx, true);
        view.setFloat32(at + 4, ny, true);
        view.setFloat32(at + 8, nz, true);
        for (let i = 0; i < 9; i++) view.setFloat32(at + 12 + 4 * i, corner[i], true);
        view.setUint16(at + 48, 0, true);
        at += 50;
      }
    }
  }
  return out;
}

/** Unit normal of the triangle a,b,c (counter-clockwise), or 0,0,0 when it is degenerate. */
function facetNormal(c: Float32Array): [number, number, number] {
  const ux = c[3] - c[0];
  const uy = c[4] - c[1];
  const uz = c[5] - c[2];
  const vx = c[6] - c[0];
  const vy = c[7] - c[1];
  const vz = c[8] - c[2];
  const x = uy * vz - uz * vy;
  const y = uz * vx - ux * vz;
  const z = ux * vy - uy * vx;
  const length = Math.sqrt(x * x + y * y + z * z);
  return length > 0 ? [x / length, y / length, z / length] : [0, 0, 0];
}
