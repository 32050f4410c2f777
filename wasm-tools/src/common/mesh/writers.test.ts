import { describe, expect, test } from "bun:test";
import { hexColor, linearToSrgb, srgbToLinear } from "./color";
import { writeGlb } from "./glb";
import { formatNumber, writeObj } from "./obj";
import { refReadGlb, refReadObj, refReadStl, validateGlb } from "./reference";
import { stlSize, writeStl } from "./stl";
import type { MeshScene, Rgba } from "./types";

const RED: Rgba = { r: 1, g: 0, b: 0, a: 1 };
const BLUE: Rgba = { r: 0, g: 0, b: 1, a: 1 };
const GLASS: Rgba = { r: 0.5, g: 0.7, b: 0.9, a: 0.4 };

/** A 2 x 3 x 4 box (8 shared corners, 12 triangles, outward winding) with the given corner offset. */
function box(dx = 0): { positions: Float32Array; normals: Float32Array; top: Uint32Array; rest: Uint32Array } {
  const positions = new Float32Array([0, 0, 0, 2, 0, 0, 2, 3, 0, 0, 3, 0, 0, 0, 4, 2, 0, 4, 2, 3, 4, 0, 3, 4].map((v, i) => (i % 3 === 0 ? v + dx : v)));
  // corner normals pointing away from the centre, deliberately not unit length
  const normals = new Float32Array([...positions].map((v, i) => v - [1 + dx, 1.5, 2][i % 3]));
  const top = new Uint32Array([4, 5, 6, 4, 6, 7]);
  const rest = new Uint32Array([0, 2, 1, 0, 3, 2, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7]);
  return { positions, normals, top, rest };
}

function scene(): MeshScene {
  const a = box();
  const b = box(10);
  return {
    parts: [
      { name: "Bolt", primitives: [{ ...a, indices: a.top, color: RED }, { ...a, indices: a.rest, color: BLUE }], extras: { id: 7 } },
      { name: "Glass pane", primitives: [{ ...b, indices: new Uint32Array([...b.top, ...b.rest]), color: GLASS }] },
      { name: "empty", primitives: [{ positions: new Float32Array(0), indices: new Uint32Array(0), color: RED }] },
    ],
    roots: [{ name: "Assembly", children: [{ name: "Bolt node", part: 0 }, { name: "Pane node", part: 1 }, { name: "nothing", part: 2 }] }],
  };
}

describe("GLB writer", () => {
  test("writes a valid GLB: names, shared vertices, colours, exact bounds, alignment", async () => {
    const bytes = writeGlb(scene(), { generator: "test", scale: 0.5, doubleSided: true });
    const { errors, warnings, report } = await validateGlb(bytes);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(report.info?.totalTriangleCount).toBe(24);
    expect(bytes.byteLength % 4).toBe(0);

    const glb = refReadGlb(bytes);
    expect(glb.json.asset).toEqual({ version: "2.0", generator: "test" });
    expect(glb.json.meshes.map((m) => m.name)).toEqual(["Bolt", "Glass pane"]); // the empty part is left out
    expect(glb.json.nodes.map((n) => n.name).sort()).toEqual(["Assembly", "Bolt node", "Pane node"]);
    expect(glb.json.meshes[0].extras).toEqual({ id: 7 });
    expect(glb.meshTriangles(0)).toBe(12);
    expect(glb.triangles()).toBe(24);
    // the Bolt's two primitives share one POSITION accessor
    const [top, rest] = glb.json.meshes[0].primitives;
    expect(top.attributes.POSITION).toBe(rest.attributes.POSITION);
    // one material per colour; translucent colours blend
    expect(glb.json.materials.map((m) => m.pbrMetallicRoughness?.baseColorFactor)).toEqual([
      [1, 0, 0, 1],
      [0, 0, 1, 1],
      [0.5, 0.7, 0.9, 0.4],
    ]);
    expect(glb.json.materials[2].alphaMode).toBe("BLEND");
    // scaled bounds, and min/max equal to the data
    const pos = glb.json.accessors[top.attributes.POSITION];
    expect(pos.min).toEqual([0, 0, 0]);
    expect(pos.max).toEqual([1, 1.5, 2]);
    const pane = glb.json.accessors[glb.json.meshes[1].primitives[0].attributes.POSITION];
    expect(pane.min).toEqual([5, 0, 0]);
    // normals are unit length
    const normals = glb.read(top.attributes.NORMAL);
    for (let i = 0; i < normals.length; i += 3) expect(Math.hypot(normals[i], normals[i + 1], normals[i + 2])).toBeCloseTo(1, 6);
    for (const v of glb.json.bufferViews) expect((v.byteOffset ?? 0) % 4).toBe(0);
  });

  test("uses 32-bit indices past 65535 vertices and stays valid", async () => {
    const n = 70_000;
    const positions = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) positions.set([i % 300, Math.floor(i / 300), (i * 7) % 5], 3 * i);
    const indices = new Uint32Array(3 * (n - 2));
    for (let t = 0; t < n - 2; t++) indices.set([t, t + 1, t + 2], 3 * t);
    const bytes = writeGlb({ parts: [{ name: "strip", primitives: [{ positions, indices, color: RED }] }] }, { generator: "test" });
    const { errors } = await validateGlb(bytes);
    expect(errors).toEqual([]);
    const glb = refReadGlb(bytes);
    expect(glb.json.accessors[glb.json.meshes[0].primitives[0].indices ?? -1].componentType).toBe(5125);
    expect(glb.triangles()).toBe(n - 2);
  });

  test("is deterministic and refuses an empty scene or a bad index", () => {
    expect(writeGlb(scene(), { generator: "t" })).toEqual(writeGlb(scene(), { generator: "t" }));
    expect(() => writeGlb({ parts: [] }, { generator: "t" })).toThrow(/no triangles/);
    const positions = new Float32Array(9);
    expect(() => writeGlb({ parts: [{ name: "x", primitives: [{ positions, indices: new Uint32Array([0, 1, 3]), color: RED }] }] }, { generator: "t" })).toThrow(/past the 3 vertices/);
  });
});

describe("STL writer", () => {
  test("writes every triangle with its facet normal; size is 84 + 50 n", () => {
    const bytes = writeStl(scene(), { header: "solid-looking header", scale: 2 });
    expect(bytes.byteLength).toBe(stlSize(24));
    const stl = refReadStl(bytes);
    expect(stl.count).toBe(24);
    expect(stl.header.startsWith("solid")).toBe(false);
    // first triangle: the box top (z = 4, scaled to 8) facing +z
    expect(stl.corner(0, 0)).toEqual([0, 0, 8]);
    expect(stl.corner(0, 1)).toEqual([4, 0, 8]);
    expect(stl.normal(0)).toEqual([0, 0, 1]);
    // last triangle belongs to the second box, shifted by 10 (x 2)
    expect(stl.corner(23, 0)[0]).toBeGreaterThanOrEqual(20);
  });
});

describe("OBJ writer", () => {
  test("writes parts as objects with shared vertices, normals and in-range faces", () => {
    const text = new TextDecoder().decode(writeObj(scene(), { comment: "test\nfile", scale: 1 }));
    const obj = refReadObj(text);
    expect(obj.objects).toEqual(["Bolt", "Glass pane"]);
    expect(obj.vertices.length).toBe(16); // 8 per box, the Bolt's shared between its two colours
    expect(obj.normals).toBe(16);
    expect(obj.faces.length).toBe(24);
    expect(obj.vertices[6]).toEqual([2, 3, 4]);
    expect(text.split("\n")[0]).toBe("# test file");
  });

  test("formats numbers with at most 6 decimals", () => {
    expect(formatNumber(Math.fround(0.1))).toBe("0.1");
    expect(formatNumber(-0.0000001)).toBe("0");
    expect(formatNumber(12345.6789012)).toBe("12345.678901");
    expect(formatNumber(-2.5)).toBe("-2.5");
  });
});

test("hexColor turns linear RGB into sRGB hex", () => {
  expect(hexColor({ r: 1, g: 0, b: 0, a: 1 })).toBe("#ff0000");
  expect(hexColor({ r: 0.603827, g: 0.603827, b: 0.603827, a: 1 })).toBe("#cccccc");
  expect(hexColor({ r: 0.1, g: 0.3, b: 2, a: 1 })).toBe("#5995ff"); // 89.04, 148.88, clamped
});

test("the sRGB curve matches Math.pow closely and round-trips", () => {
  for (let i = 0; i <= 1000; i++) {
    const c = i / 1000;
    const reference = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    expect(Math.abs(srgbToLinear(c) - reference)).toBeLessThan(1e-12);
    expect(Math.abs(linearToSrgb(srgbToLinear(c)) - c)).toBeLessThan(1e-12);
  }
  expect(srgbToLinear(0.8)).toBeCloseTo(0.603827, 6);
  expect(srgbToLinear(1)).toBe(1);
  expect(srgbToLinear(0)).toBe(0);
});
