import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import type { ToolOutput } from "@vektor/shared/tools/manifest";
import { refReadGlb, refReadObj, refReadStl, validateGlb, windingDisagreements } from "../../common/mesh/reference";
import { expectToolError, text } from "../../testing/run-tool";
import { cadFixture, runCad, textBytes } from "../test-support";

/** Generous: the first test loads the WASM engine, and CI machines can be busy. */
const SLOW = 60_000;

const CUBE_STEP = "cube-10x10mm/Cube 10x10.stp";
const BREP = "cax-if-brep/as1_pe_203.brep";
/** Index counts of as1_pe_203's 18 solids, from occt-import-js's own test suite. */
const BREP_INDEX_COUNTS = [1980, 1356, 612, 360, 612, 360, 612, 360, 1356, 612, 360, 612, 360, 612, 360, 300, 360, 360];
const BREP_TRIANGLES = BREP_INDEX_COUNTS.reduce((a, b) => a + b, 0) / 3;

async function convert(path: string, params: Record<string, unknown> = {}): Promise<ToolOutput> {
  const outputs = await runCad("cad.convert", [cadFixture(path)], params);
  expect(outputs.length).toBe(1);
  return outputs[0];
}

/** Errors and warnings of the Khronos validator for a GLB output, which must have none. */
async function expectValidGlb(out: ToolOutput) {
  expect(out.mime).toBe("model/gltf-binary");
  const { errors, warnings } = await validateGlb(out.bytes);
  expect(errors).toEqual([]);
  expect(warnings).toEqual([]);
  return refReadGlb(out.bytes);
}

/** max - min of an accessor's declared bounds. */
function declaredSize(accessor: { min?: number[]; max?: number[] }): number[] {
  const min = accessor.min ?? [];
  return (accessor.max ?? []).map((v, i) => v - min[i]);
}

function extent(values: number[]): number[] {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  values.forEach((v, i) => {
    min[i % 3] = Math.min(min[i % 3], v);
    max[i % 3] = Math.max(max[i % 3], v);
  });
  return max.map((v, i) => v - min[i]);
}

describe("cad.convert", () => {
  test("STEP cube to GLB: valid, 12 triangles, named, 10 mm = 0.01 m", async () => {
    const out = await convert(CUBE_STEP);
    expect(out.name).toBe("Cube 10x10.glb");
    const glb = await expectValidGlb(out);
    expect(glb.triangles()).toBe(12);
    expect(glb.json.meshes.map((m) => m.name)).toEqual(["Cube 10x10"]);
    expect(glb.json.nodes.map((n) => n.name)).toEqual(["Cube 10x10"]);
    const position = glb.json.accessors[glb.json.meshes[0].primitives[0].attributes.POSITION];
    expect(declaredSize(position)).toEqual([0.01, 0.01, 0.01].map(Math.fround));
    expect(extent(glb.read(glb.json.meshes[0].primitives[0].attributes.POSITION))).toEqual(declaredSize(position));
  }, SLOW);

  test("the unit param scales the output", async () => {
    const glb = refReadGlb((await convert(CUBE_STEP, { unit: "mm" })).bytes);
    const position = glb.json.accessors[glb.json.meshes[0].primitives[0].attributes.POSITION];
    expect(declaredSize(position)).toEqual([10, 10, 10]);
    const stl = refReadStl((await convert(CUBE_STEP, { format: "stl", unit: "cm" })).bytes);
    const xs = Array.from({ length: stl.count * 3 }, (_, i) => stl.corner(Math.floor(i / 3), i % 3)[0]);
    expect(Math.max(...xs) - Math.min(...xs)).toBeCloseTo(1, 6);
  }, SLOW);

  test("a STEP assembly keeps its parts, names, colours and tree", async () => {
    const glb = await expectValidGlb(await convert("cax-if/as1-oc-214.stp"));
    expect(glb.json.meshes.length).toBe(18);
    expect(new Set(glb.json.meshes.map((m) => m.name))).toEqual(new Set(["nut", "rod", "bolt", "l-bracket", "plate"]));
    const root = glb.json.nodes[glb.json.scenes[0].nodes[0]];
    expect(root.name).toBe("as1");
    expect(root.children?.map((c) => glb.json.nodes[c].name).sort()).toEqual(["l-bracket-assembly", "l-bracket-assembly", "plate", "rod-assembly"]);
    const colors = glb.json.materials.map((m) => m.pbrMetallicRoughness?.baseColorFactor?.join(","));
    expect(colors).toContain("1,0,0,1"); // the nuts are red
    expect(colors).toContain("0,0,1,1"); // the bolts blue
    const nut = glb.json.meshes.find((m) => m.name === "nut");
    const material = glb.json.materials[nut?.primitives[0].material ?? -1];
    expect(material.pbrMetallicRoughness?.baseColorFactor).toEqual([1, 0, 0, 1]);
    expect(glb.json.meshes.find((m) => m.name === "rod")?.extras).toEqual({ assembly: "as1 / rod-assembly" });
    expect(windingDisagreements(glb)).toBe(0); // normals face the way the triangles wind
  }, SLOW);

  test("per-face colours become one primitive per colour", async () => {
    const glb = await expectValidGlb(await convert("cube-fcstd/cube.step"));
    expect(glb.json.meshes.length).toBe(1);
    expect(glb.json.meshes[0].primitives.length).toBe(4); // red, blue, green faces and the grey rest
    expect(glb.triangles()).toBe(12);
    const factors = glb.json.materials.map((m) => m.pbrMetallicRoughness?.baseColorFactor?.slice(0, 3));
    expect(factors).toContainEqual([1, 0, 0]);
    expect(factors).toContainEqual([0, 0, 1]);
    const primitives = glb.json.meshes[0].primitives;
    expect(new Set(primitives.map((p) => p.attributes.POSITION)).size).toBe(1); // vertices shared
  }, SLOW);

  test("BREP to binary STL: triangle count matches header, size and the solids", async () => {
    const out = await convert(BREP, { format: "stl" });
    expect(out.name).toBe("as1_pe_203.stl");
    expect(out.mime).toBe("model/stl");
    const stl = refReadStl(out.bytes); // throws unless size = 84 + 50 x count
    expect(stl.count).toBe(BREP_TRIANGLES);
    expect(out.bytes.byteLength).toBe(84 + 50 * BREP_TRIANGLES);
    expect(stl.header.startsWith("solid")).toBe(false);
    for (let t = 0; t < stl.count; t += 97) {
      const [x, y, z] = stl.normal(t);
      const length = Math.hypot(x, y, z);
      expect(length === 0 || Math.abs(length - 1) < 1e-5).toBe(true);
    }
  }, SLOW);

  test("BREP to GLB and OBJ agree with the STL", async () => {
    const glb = await expectValidGlb(await convert(BREP));
    expect(glb.json.meshes.map((_, m) => glb.meshTriangles(m))).toEqual(BREP_INDEX_COUNTS.map((n) => n / 3));
    expect(glb.json.meshes.map((m) => m.name)).toEqual(BREP_INDEX_COUNTS.map((_, i) => `Part ${i + 1}`));
    const obj = refReadObj(text(await convert(BREP, { format: "obj" })));
    expect(obj.objects.length).toBe(18);
    expect(obj.faces.length).toBe(BREP_TRIANGLES);
    expect(obj.faces.every((f) => f.length === 3)).toBe(true);
  }, SLOW);

  test("IGES cube to OBJ: one object, 24 vertices, 12 faces, 10 mm", async () => {
    const out = await convert("cube-10x10mm/Cube 10x10.igs", { format: "obj" });
    expect(out.name).toBe("Cube 10x10.obj");
    expect(out.mime).toBe("model/obj");
    const obj = refReadObj(text(out));
    expect(obj.objects).toEqual(["Solid1"]);
    expect(obj.vertices.length).toBe(24);
    expect(obj.normals).toBe(24);
    expect(obj.faces.length).toBe(12);
    expect(extent(obj.vertices.flat())).toEqual([10, 10, 10]);
  }, SLOW);

  test("linearDeflection changes the mesh (rounded cube: 98 vertices by default, 54 coarse)", async () => {
    const fine = refReadObj(text(await convert("rounded-cube/rounded-cube.step", { format: "obj" })));
    const coarse = refReadObj(text(await convert("rounded-cube/rounded-cube.step", { format: "obj", linearDeflection: 0.1 })));
    const finest = refReadObj(text(await convert("rounded-cube/rounded-cube.step", { format: "obj", linearDeflection: 0.0001 })));
    expect(fine.vertices.length).toBe(98); // occt-import-js's own test: 294 coordinates
    expect(coarse.vertices.length).toBe(54); // 162 coordinates
    expect(finest.faces.length).toBeGreaterThan(fine.faces.length);
  }, SLOW);

  test("is deterministic byte for byte", async () => {
    for (const format of ["glb", "stl", "obj"]) {
      const a = await convert(BREP, { format });
      const b = await convert(BREP, { format });
      expect(Bun.hash(a.bytes)).toBe(Bun.hash(b.bytes));
    }
  }, SLOW);

  test("rejects files that are not CAD, cut short, empty, external-only or IFC", async () => {
    const run = (bytes: Uint8Array, name = "part.stp", params = {}) => runCad("cad.convert", [{ name, bytes }], params);
    await expectToolError(run(textBytes("%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n")), "INPUT_INVALID", /not a STEP, IGES or BREP/);
    const noise = new Uint8Array(4096).map((_, i) => (i * 2654435761) >>> 24);
    await expectToolError(run(noise), "INPUT_INVALID", /not a STEP, IGES or BREP/);
    const cube = cadFixture(CUBE_STEP).bytes;
    await expectToolError(run(cube.slice(0, Math.floor(cube.length / 2))), "INPUT_INVALID", /truncated/);
    const igs = cadFixture("cube-10x10mm/Cube 10x10.igs").bytes;
    await expectToolError(run(igs.slice(0, 3000), "cube.igs"), "INPUT_INVALID", /truncated/);
    await expectToolError(run(textBytes(EMPTY_STEP)), "INPUT_EMPTY", /no solids/);
    const assembly = cadFixture("cax-if/s1-c5-214/s1-c5-214.stp");
    await expectToolError(runCad("cad.convert", [assembly]), "INPUT_EMPTY", /no solids of its own.*TAIL\.stp/);
    await expectToolError(run(textBytes(EMPTY_STEP.replace("AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }", "IFC4")), "house.ifc"), "INPUT_UNSUPPORTED", /IFC/);
    await expectToolError(run(cube, "a.stp", { format: "dxf" }), "PARAMS_INVALID", /format/);
    await expectToolError(run(cube, "a.stp", { linearDeflection: 0 }), "PARAMS_INVALID", /linearDeflection/);
    await expectToolError(run(new Uint8Array(0)), "INPUT_EMPTY", /empty/);
  }, SLOW);

  test("a STEP cut inside its DATA section but closed properly fails cleanly, and the engine keeps working", async () => {
    const lines = new TextDecoder().decode(cadFixture(CUBE_STEP).bytes).split("\n");
    const data = lines.findIndex((l) => l.startsWith("DATA;"));
    const cut = `${lines.slice(0, data + Math.floor((lines.length - data) / 2)).join("\n")}\nENDSEC;\nEND-ISO-10303-21;\n`;
    await expectToolError(runCad("cad.convert", [{ name: "cut.stp", bytes: textBytes(cut) }]), "INPUT_INVALID", /"cut\.stp" could not be read as STEP/);
    const glb = refReadGlb((await convert(CUBE_STEP)).bytes);
    expect(glb.triangles()).toBe(12);
  }, SLOW);
});

/** A well-formed STEP file whose DATA section holds nothing. */
const EMPTY_STEP = `ISO-10303-21;
HEADER;
FILE_DESCRIPTION(('empty'),'2;1');
FILE_NAME('empty.stp','2024-01-01T00:00:00',(''),(''),'','','');
FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));
ENDSEC;
DATA;
ENDSEC;
END-ISO-10303-21;
`;
