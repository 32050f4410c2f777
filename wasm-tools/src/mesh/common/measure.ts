/** Counts and bounds of a mesh, and its watertightness over vertices welded by exact position. */
import type { MeshScene } from "../../common/mesh/types";

export interface Measures {
  triangles: number;
  vertices: number;
  min: [number, number, number];
  max: [number, number, number];
  watertight: boolean;
  /** Edges used by one triangle only (holes) and by more than two (non-manifold). */
  openEdges: number;
  nonManifoldEdges: number;
}

export function measure(scene: MeshScene): Measures {
  const ids = new Map<string, number>();
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const edges = new Map<string, number>();
  let triangles = 0;
  for (const part of scene.parts) {
    for (const p of part.primitives) {
      const welded = new Uint32Array(p.positions.length / 3);
      for (let v = 0; v < welded.length; v++) {
        const x = p.positions[v * 3];
        const y = p.positions[v * 3 + 1];
        const z = p.positions[v * 3 + 2];
        const key = `${x},${y},${z}`;
        let id = ids.get(key);
        if (id === undefined) ids.set(key, (id = ids.size));
        welded[v] = id;
        if (x < min[0]) min[0] = x;
        if (y < min[1]) min[1] = y;
        if (z < min[2]) min[2] = z;
        if (x > max[0]) max[0] = x;
        if (y > max[1]) max[1] = y;
        if (z > max[2]) max[2] = z;
      }
      for (let t = 0; t + 2 < p.indices.length; t += 3) {
        triangles++;
        for (let k = 0; k < 3; k++) {
          const a = welded[p.indices[t + k]];
          const b = welded[p.indices[t + ((k + 1) % 3)]];
          const key = a < b ? `${a}:${b}` : `${b}:${a}`;
          edges.set(key, (edges.get(key) ?? 0) + 1);
        }
      }
    }
  }
  let openEdges = 0;
  let nonManifoldEdges = 0;
  for (const uses of edges.values()) {
    if (uses === 1) openEdges++;
    else if (uses > 2) nonManifoldEdges++;
  }
  return { triangles, vertices: ids.size, min, max, watertight: triangles > 0 && openEdges === 0 && nonManifoldEdges === 0, openEdges, nonManifoldEdges };
}
