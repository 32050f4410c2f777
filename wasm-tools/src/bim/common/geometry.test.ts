import { describe, expect, test } from "bun:test";
import { place } from "./geometry";

/** One triangle in the z = 0 plane, counter-clockwise seen from +z, normals +z. */
const VERTICES = new Float32Array([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1]);
const INDICES = new Uint32Array([0, 1, 2]);

/** Column-major 4x4 from its rows (as one would write it on paper). */
function columnMajor(rows: number[][]): number[] {
  const m: number[] = [];
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) m.push(rows[r][c]);
  return m;
}

function faceNormal(p: Float32Array, i: Uint32Array): number[] {
  const [a, b, c] = [i[0], i[1], i[2]].map((k) => [p[3 * k], p[3 * k + 1], p[3 * k + 2]]);
  const u = b.map((v, k) => v - a[k]);
  const w = c.map((v, k) => v - a[k]);
  return [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]].map((v) => v + 0); // no -0
}

describe("placing IFC geometry", () => {
  test("rotation (IFC's Z up to glTF's Y up) and translation move positions and turn normals", () => {
    // x' = x + 10, y' = z + 20, z' = -y + 30
    const m = columnMajor([
      [1, 0, 0, 10],
      [0, 0, 1, 20],
      [0, -1, 0, 30],
      [0, 0, 0, 1],
    ]);
    const { positions, normals, indices } = place(VERTICES, INDICES, m);
    expect([...positions]).toEqual([10, 20, 30, 11, 20, 30, 10, 20, 29]);
    expect([...normals.subarray(0, 3)]).toEqual([0, 1, 0]); // +z turned to +y
    expect([...indices]).toEqual([0, 1, 2]);
    expect(faceNormal(positions, indices)).toEqual([0, 1, 0]); // winding still agrees with the normals
  });

  test("a mirroring placement flips the winding and keeps normals facing out", () => {
    const m = columnMajor([
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, -1, 0],
      [0, 0, 0, 1],
    ]);
    const { positions, normals, indices } = place(VERTICES, INDICES, m);
    expect([...normals.subarray(0, 3)].map((v) => v + 0)).toEqual([0, 0, -1]);
    expect([...indices]).toEqual([0, 2, 1]);
    const n = faceNormal(positions, indices);
    expect(n[2]).toBeLessThan(0); // the triangle faces -z, like its normals
  });

  test("non-uniform scaling uses the inverse transpose for normals", () => {
    // a 45-degree slope (normal (1,1,0)/sqrt2) stretched 2x along x: the true normal leans towards y
    const vertices = new Float32Array([0, 0, 0, 1, 1, 0, 1, -1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0]);
    const m = columnMajor([
      [2, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ]);
    const { normals } = place(vertices, new Uint32Array([0, 1, 2]), m);
    const [x, y] = normals;
    expect(y / x).toBeCloseTo(2, 6); // (1/2, 1) direction, not (2, 1)
  });
});
