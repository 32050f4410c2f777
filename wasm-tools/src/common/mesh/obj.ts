/**
 * A Wavefront OBJ writer: one `o` object per part, `v` and `vn` lines, triangles as
 * `f a//a b//b c//c` with file-wide 1-based indices. Numbers have at most 6 decimals (exact
 * decimal rounding, the same in every JavaScript engine). OBJ keeps no colours without a
 * separate .mtl file, so colours are left out.
 */
import type { MeshScene } from "./types";

/** How the file is written. */
export interface ObjOptions {
  /** First comment line, e.g. the tool and the source file. */
  comment: string;
  /** Multiplies every position. */
  scale?: number;
}

/** `x` rounded to 6 decimals, without trailing zeros (`-0` prints as `0`). */
export function formatNumber(x: number): string {
  const rounded = Number(x.toFixed(6));
  return rounded === 0 ? "0" : String(rounded);
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ").trim();
}

/** Writes `scene` as OBJ text (UTF-8 bytes). */
export function writeObj(scene: MeshScene, options: ObjOptions): Uint8Array {
  const scale = options.scale ?? 1;
  const lines: string[] = [];
  let vertices = 0;
  let triangles = 0;
  for (const part of scene.parts) {
    for (const p of part.primitives) triangles += Math.floor(p.indices.length / 3);
  }
  lines.push(`# ${oneLine(options.comment)}`, `# ${scene.parts.length} parts, ${triangles} triangles`);

  scene.parts.forEach((part, i) => {
    const withTriangles = part.primitives.filter((p) => p.indices.length >= 3);
    if (withTriangles.length === 0) return;
    lines.push(`o ${oneLine(part.name) || `part_${i + 1}`}`);
    const base = new Map<Float32Array, { first: number; normals: boolean }>();
    for (const p of withTriangles) {
      let block = base.get(p.positions);
      if (!block) {
        const normals = p.normals !== undefined && p.normals.length === p.positions.length;
        block = { first: vertices + 1, normals };
        base.set(p.positions, block);
        const n = Math.floor(p.positions.length / 3);
        for (let v = 0; v < n; v++) {
          lines.push(`v ${formatNumber(p.positions[3 * v] * scale)} ${formatNumber(p.positions[3 * v + 1] * scale)} ${formatNumber(p.positions[3 * v + 2] * scale)}`);
        }
        if (normals && p.normals) {
          const m = p.normals;
          for (let v = 0; v < n; v++) {
            const [x, y, z] = unit(m[3 * v], m[3 * v + 1], m[3 * v + 2]);
            lines.push(`vn ${formatNumber(x)} ${formatNumber(y)} ${formatNumber(z)}`);
          }
        }
        vertices += n;
      }
      const { first, normals } = block;
      for (let t = 0; t + 2 < p.indices.length; t += 3) {
        const a = first + p.indices[t];
        const b = first + p.indices[t + 1];
        const c = first + p.indices[t + 2];
        lines.push(normals ? `f ${a}//${a} ${b}//${b} ${c}//${c}` : `f ${a} ${b} ${c}`);
      }
    }
  });
  lines.push("");
  return new TextEncoder().encode(lines.join("\n"));
}

function unit(x: number, y: number, z: number): [number, number, number] {
  const length = Math.sqrt(x * x + y * y + z * z);
  return length > 1e-12 ? [x / length, y / length, z / length] : [0, 0, 1];
}
