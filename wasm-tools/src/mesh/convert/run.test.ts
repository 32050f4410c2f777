import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { validateGlb } from "../../common/mesh/reference";
import { expectToolError, text } from "../../testing/run-tool";
import { cubeStl, runMesh, sphereAsciiStl } from "../test-support";

const TARGETS = ["stl", "obj", "ply", "glb", "gltf", "3mf"] as const;

async function infoOf(name: string, bytes: Uint8Array) {
  const [out] = await runMesh("mesh.info", [{ name, bytes }]);
  return JSON.parse(text(out)) as { format: string; triangles: number; vertices: number; boundingBox: { min: number[]; max: number[] }; watertight: boolean };
}

describe("mesh.convert", () => {
  test.each(TARGETS)("the cube and a sphere round-trip through %s: same triangles, bounds and watertightness", async (to) => {
    for (const input of [cubeStl(), { name: "sphere.stl", bytes: new TextEncoder().encode(sphereAsciiStl(5, 8, 16)) }]) {
      const before = await infoOf(input.name, input.bytes);
      const [converted] = await runMesh("mesh.convert", [input], { to });
      // STL to STL is named apart from its input (execute's rule).
      expect(converted.name).toBe(input.name.replace(/\.stl$/, to === "stl" ? "-convert.stl" : `.${to}`));
      const middle = await infoOf(converted.name, converted.bytes);
      expect(middle).toMatchObject({ format: to, triangles: before.triangles, watertight: before.watertight });
      const [back] = await runMesh("mesh.convert", [{ name: converted.name, bytes: converted.bytes }], { to: "stl" });
      const after = await infoOf("back.stl", back.bytes);
      expect(after.triangles).toBe(before.triangles);
      for (const k of ["min", "max"] as const) after.boundingBox[k].forEach((v, i) => expect(v).toBeCloseTo(before.boundingBox[k][i], 4));
    }
  });

  test("GLB output passes the Khronos glTF validator; ASCII STL when asked", async () => {
    const [glb] = await runMesh("mesh.convert", [cubeStl()], { to: "glb" });
    expect((await validateGlb(glb.bytes)).errors).toEqual([]);
    const [ascii] = await runMesh("mesh.convert", [cubeStl()], { to: "stl", stlAscii: true });
    expect(text(ascii).startsWith("solid cube\n")).toBe(true);
    expect(text(ascii).match(/facet normal/g)?.length).toBe(12);
  });
});

describe("mesh tools on bad input", () => {
  test("an STL that lies about its triangle count is INPUT_INVALID naming both numbers; the next run is unaffected", async () => {
    const lying = cubeStl().bytes.slice();
    new DataView(lying.buffer).setUint32(80, 1_000_000, true);
    await expectToolError(runMesh("mesh.info", [{ name: "lying.stl", bytes: lying }]), "INPUT_INVALID", /says it holds 1,000,000 triangles \(50,000,084 bytes\) but the file has 684 bytes/);
    const cut = cubeStl().bytes.slice(0, 300);
    await expectToolError(runMesh("mesh.convert", [{ name: "cut.stl", bytes: cut }], { to: "obj" }), "INPUT_INVALID", /12 triangles .* but the file has 300 bytes/);
    expect((await infoOf("cube.stl", cubeStl().bytes)).triangles).toBe(12);
  });

  test("a point cloud PLY is INPUT_EMPTY; a glTF with an external buffer INPUT_UNSUPPORTED; other bytes INPUT_INVALID", async () => {
    const points = new TextEncoder().encode("ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n0 0 0\n1 1 1\n");
    await expectToolError(runMesh("mesh.info", [{ name: "cloud.ply", bytes: points }]), "INPUT_EMPTY", /holds no triangles/);
    const external = new TextEncoder().encode(JSON.stringify({ asset: { version: "2.0" }, buffers: [{ uri: "mesh.bin", byteLength: 36 }] }));
    await expectToolError(runMesh("mesh.convert", [{ name: "m.gltf", bytes: external }]), "INPUT_UNSUPPORTED", /separate file \(mesh\.bin\)/);
    await expectToolError(runMesh("mesh.convert", [{ name: "x.stl", bytes: new TextEncoder().encode("hello") }]), "INPUT_INVALID", /not a mesh this tool reads/);
  });
});
