/**
 * A read CAD model as the mesh writers' scene: one part per solid, split into one primitive per
 * colour when B-rep faces carry their own colours (the vertices stay shared).
 */
import { DEFAULT_COLOR, type MeshPart, type MeshScene, type Primitive, type Rgba } from "../../common/mesh/types";
import type { CadModel, CadPart } from "./read";

function key(c: Rgba): string {
  return `${c.r},${c.g},${c.b},${c.a}`;
}

/** The part's triangles grouped by effective colour (face colour, else part colour, else grey), in order of first use. */
export function primitivesOf(part: CadPart): Primitive[] {
  const base = part.color ?? DEFAULT_COLOR;
  const triangles = Math.floor(part.indices.length / 3);
  const colorOf = new Array<Rgba>(triangles).fill(base);
  for (const face of part.faces) {
    if (!face.color) continue;
    for (let t = Math.max(0, face.first); t <= Math.min(triangles - 1, face.last); t++) colorOf[t] = face.color;
  }
  const groups = new Map<string, { color: Rgba; triangles: number[] }>();
  for (let t = 0; t < triangles; t++) {
    const k = key(colorOf[t]);
    let group = groups.get(k);
    if (!group) {
      group = { color: colorOf[t], triangles: [] };
      groups.set(k, group);
    }
    group.triangles.push(t);
  }
  if (groups.size <= 1) return [{ positions: part.positions, normals: part.normals, indices: part.indices, color: colorOf[0] ?? base }];
  return [...groups.values()].map(({ color, triangles: list }) => {
    const indices = new Uint32Array(list.length * 3);
    list.forEach((t, i) => indices.set(part.indices.subarray(3 * t, 3 * t + 3), 3 * i));
    return { positions: part.positions, normals: part.normals, indices, color };
  });
}

/** The writers' scene for `model`, keeping the assembly tree. */
export function cadScene(model: CadModel): MeshScene {
  const parts: MeshPart[] = model.parts.map((part) => ({
    name: part.name,
    primitives: primitivesOf(part),
    ...(part.path.length ? { extras: { assembly: part.path.join(" / ") } } : {}),
  }));
  return { parts, roots: model.roots };
}
