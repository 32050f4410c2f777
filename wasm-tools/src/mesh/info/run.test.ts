import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { text } from "../../testing/run-tool";
import { cubeStl, runMesh, sphereAsciiStl } from "../test-support";

async function info(name: string, bytes: Uint8Array) {
  const [out] = await runMesh("mesh.info", [{ name, bytes }]);
  expect(out.name).toBe(`${name.replace(/\.[^.]+$/, "")}-info.json`);
  return JSON.parse(text(out));
}

describe("mesh.info", () => {
  test("the 10 mm cube (binary STL): 12 triangles, 8 welded vertices, watertight, a 10 mm box", async () => {
    const report = await info("cube.stl", cubeStl().bytes);
    expect(report).toMatchObject({ format: "stl", unit: null, triangles: 12, vertices: 8, watertight: true, openEdges: 0 });
    expect(report.boundingBox.size).toEqual([10, 10, 10]);
  });

  test("an ASCII STL sphere is watertight; with one facet removed it is not", async () => {
    const sphere = sphereAsciiStl(5, 12, 24);
    const whole = await info("sphere.stl", new TextEncoder().encode(sphere));
    expect(whole).toMatchObject({ format: "stl", triangles: 12 * 24 * 2 - 2 * 24, watertight: true });
    expect(whole.boundingBox.min).toEqual([-5, -5, -5]);
    const holed = sphere.replace(/facet normal[^]*?endfacet\n/, "");
    const open = await info("holed.stl", new TextEncoder().encode(holed));
    expect(open).toMatchObject({ triangles: whole.triangles - 1, watertight: false, openEdges: 3 });
  });
});
