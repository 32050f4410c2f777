import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import type { ToolOutput } from "@vektor/shared/tools/manifest";
import { refReadGlb, validateGlb, windingDisagreements, type RefGlb } from "../../common/mesh/reference";
import { expectToolError, text } from "../../testing/run-tool";
import { ifcFixture, runBim } from "../test-support";

/** Generous: the first test loads the WASM engine, and CI machines can be busy. */
const SLOW = 60_000;

async function toGlb(file: string, params: Record<string, unknown> = {}): Promise<ToolOutput> {
  const outputs = await runBim("bim.ifc-to-glb", [ifcFixture(file)], params);
  expect(outputs.length).toBe(1);
  expect(outputs[0].mime).toBe("model/gltf-binary");
  expect(outputs[0].name).toBe(file.replace(/\.ifc$/, ".glb"));
  return outputs[0];
}

async function expectValid(out: ToolOutput): Promise<RefGlb> {
  const { errors, warnings, report } = await validateGlb(out.bytes);
  expect(errors).toEqual([]);
  expect(warnings).toEqual([]);
  const glb = refReadGlb(out.bytes);
  expect(report.info?.totalTriangleCount).toBe(glb.triangles());
  return glb;
}

/** World-space extent of every POSITION accessor (nodes carry no transforms). */
function extent(glb: RefGlb): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const mesh of glb.json.meshes) {
    for (const p of mesh.primitives) {
      const a = glb.json.accessors[p.attributes.POSITION];
      for (let i = 0; i < 3; i++) {
        min[i] = Math.min(min[i], a.min?.[i] ?? Infinity);
        max[i] = Math.max(max[i], a.max?.[i] ?? -Infinity);
      }
    }
  }
  return { min, max };
}

async function info(file: string) {
  const [out] = await runBim("bim.ifc-info", [ifcFixture(file)]);
  return JSON.parse(text(out)) as { elementsWithGeometry: number; triangles: number };
}

describe("bim.ifc-to-glb", () => {
  test("IFC4 FZK-Haus: valid GLB, one mesh per element with geometry, named, Y up in metres", async () => {
    const glb = await expectValid(await toGlb("AC20-FZK-Haus.ifc"));
    const facts = await info("AC20-FZK-Haus.ifc");
    expect(glb.json.meshes.length).toBe(facts.elementsWithGeometry);
    expect(glb.triangles()).toBe(facts.triangles);
    // A wall known from the file: #15042 IFCWALLSTANDARDCASE('2XPyKWY018sA1ygZKgQPtU', ..., 'Wand-Int-ERDG-4', ...)
    const wall = glb.json.nodes.find((n) => n.extras?.globalId === "2XPyKWY018sA1ygZKgQPtU");
    expect(wall).toMatchObject({ name: "Wand-Int-ERDG-4", extras: { ifcType: "IfcWallStandardCase", expressId: 15042 } });
    expect(glb.json.meshes[wall?.mesh ?? -1].name).toBe("Wand-Int-ERDG-4");
    // The tree: project > site > building > storeys > elements
    const root = glb.json.nodes[glb.json.scenes[0].nodes[0]];
    expect(root.extras?.ifcType).toBe("IfcProject");
    const names = (n: (typeof glb.json.nodes)[number]): string[] => [n.name ?? "", ...(n.children ?? []).flatMap((c) => names(glb.json.nodes[c]))];
    expect(names(root)).toEqual(expect.arrayContaining(["Projekt-FZK-Haus", "Gelaende", "FZK-Haus", "Erdgeschoss", "Dachgeschoss", "Wand-Int-ERDG-4"]));
    // Y is up: the house is a few metres tall and wider than it is tall
    const { min, max } = extent(glb);
    const size = max.map((v, i) => v - min[i]);
    expect(size[1]).toBeGreaterThan(5);
    expect(size[1]).toBeLessThan(12);
    expect(size[0]).toBeGreaterThan(size[1]);
    expect(size[2]).toBeGreaterThan(size[1]);
    // Placement: the upper storey's elements sit above 2.5 m (its elevation is 2.7), the ground floor's below 4 m
    const storeyY = (name: string) => {
      let low = Infinity;
      let high = -Infinity;
      const visit = (i: number) => {
        const n = glb.json.nodes[i];
        for (const p of n.mesh === undefined ? [] : glb.json.meshes[n.mesh].primitives) {
          const a = glb.json.accessors[p.attributes.POSITION];
          low = Math.min(low, a.min?.[1] ?? Infinity);
          high = Math.max(high, a.max?.[1] ?? -Infinity);
        }
        n.children?.forEach(visit);
      };
      glb.json.nodes.filter((n) => n.name === name).forEach((n) => n.children?.forEach(visit));
      return [low, high];
    };
    expect(storeyY("Dachgeschoss")[0]).toBeGreaterThan(2.4);
    expect(storeyY("Erdgeschoss")[1]).toBeLessThan(4);
    expect(storeyY("Erdgeschoss")[0]).toBeLessThan(0);
    // Normals follow the placement: every triangle's vertex normals agree with its winding (as in web-ifc's own output)
    expect(windingDisagreements(glb)).toBe(0);
    // Colours come from the surface styles, as linear light: #22748 IFCSURFACESTYLERENDERING('Glas') of
    // #22747 IFCCOLOURRGB(0.58052948806, 0.753292133974, 0.675211718929) with transparency 0.88
    const linear = (c: number) => ((c + 0.055) / 1.055) ** 2.4;
    const glass = [0.58052948806, 0.753292133974, 0.675211718929].map(linear);
    const glassMaterial = glb.json.materials.find((m) => {
      const f = m.pbrMetallicRoughness?.baseColorFactor ?? [];
      return glass.every((v, i) => Math.abs(f[i] - v) < 1e-9) && Math.abs(f[3] - 0.12) < 1e-6;
    });
    expect(glassMaterial?.alphaMode).toBe("BLEND");
    // #13125 IFCCOLOURRGB(0.429510948348, 0.152590218967, 0.152590218967), opaque (the roof)
    const roof = [0.429510948348, 0.152590218967, 0.152590218967].map(linear);
    expect(glb.json.materials.some((m) => roof.every((v, i) => Math.abs((m.pbrMetallicRoughness?.baseColorFactor ?? [])[i] - v) < 1e-9))).toBe(true);
    expect(glb.json.materials.length).toBeGreaterThan(3);
  }, SLOW);

  test("IFC2X3 duplex: valid, colours from the placed geometry, every node with a GlobalId", async () => {
    const glb = await expectValid(await toGlb("duplex.ifc"));
    const facts = await info("duplex.ifc");
    expect(glb.json.meshes.length).toBe(facts.elementsWithGeometry);
    const colors = new Set(glb.json.materials.map((m) => m.pbrMetallicRoughness?.baseColorFactor?.join(",")));
    expect(colors.size).toBe(glb.json.materials.length);
    expect(colors.size).toBeGreaterThan(5);
    const withMesh = glb.json.nodes.filter((n) => n.mesh !== undefined);
    expect(withMesh.length).toBe(glb.json.meshes.length);
    expect(withMesh.every((n) => typeof n.extras?.globalId === "string" && (n.extras.globalId as string).length === 22)).toBe(true);
    const types = new Set(withMesh.map((n) => n.extras?.ifcType));
    for (const t of ["IfcWallStandardCase", "IfcDoor", "IfcWindow", "IfcSlab"]) expect(types.has(t)).toBe(true);
  }, SLOW);

  test("coordinateToOrigin moves a millimetre model's bounding box near the origin, and output is deterministic", async () => {
    const placed = await toGlb("example.ifc");
    const moved = await toGlb("example.ifc", { coordinateToOrigin: true });
    expect(windingDisagreements(await expectValid(moved))).toBe(0);
    const a = extent(refReadGlb(placed.bytes));
    const b = extent(refReadGlb(moved.bytes));
    expect(Math.max(...a.min.map(Math.abs), ...a.max.map(Math.abs))).toBeGreaterThan(100); // placed ~100 m from the origin
    const sizeA = a.max.map((v, i) => v - a.min[i]);
    const sizeB = b.max.map((v, i) => v - b.min[i]);
    sizeA.forEach((s, i) => expect(Math.abs(s - sizeB[i])).toBeLessThan(1e-3)); // same model, metres either way
    expect(Math.max(...b.min.map(Math.abs), ...b.max.map(Math.abs))).toBeLessThan(Math.max(...sizeB) + 1);
    const again = await toGlb("example.ifc");
    expect(Bun.hash(again.bytes)).toBe(Bun.hash(placed.bytes));
  }, SLOW);

  test("rejects unknown schemas, non-IFC files, truncated files and models without geometry", async () => {
    const example = new TextDecoder().decode(ifcFixture("example.ifc").bytes);
    const run = (name: string, source: string | Uint8Array) => runBim("bim.ifc-to-glb", [{ name, bytes: typeof source === "string" ? new TextEncoder().encode(source) : source }]);
    await expectToolError(run("x.ifc", example.replace("FILE_SCHEMA(('IFC2X3'));", "FILE_SCHEMA(('IFC9'));")), "INPUT_UNSUPPORTED", /IFC9/);
    await expectToolError(run("x.ifc", new Uint8Array(2048).map((_, i) => (i * 131 + 7) % 256)), "INPUT_INVALID", /not an IFC file/);
    await expectToolError(run("x.ifc", example.slice(0, example.length / 2)), "INPUT_INVALID", /truncated/);
    const header = example.slice(0, example.indexOf("DATA;"));
    await expectToolError(run("empty.ifc", `${header}DATA;\nENDSEC;\nEND-ISO-10303-21;\n`), "INPUT_EMPTY", /no elements with geometry/);
  }, SLOW);

  test("an IFC cut inside DATA but closed properly gives a valid, smaller model; the engine keeps working", async () => {
    const example = new TextDecoder().decode(ifcFixture("example.ifc").bytes);
    const lines = example.split("\n");
    const cut = `${lines.slice(0, Math.floor(lines.length * 0.9)).join("\n")}\nENDSEC;\nEND-ISO-10303-21;\n`;
    const [out] = await runBim("bim.ifc-to-glb", [{ name: "cut.ifc", bytes: new TextEncoder().encode(cut) }]);
    const glb = await expectValid(out);
    const full = refReadGlb((await toGlb("example.ifc")).bytes);
    expect(glb.triangles()).toBeLessThanOrEqual(full.triangles());
    expect(glb.json.meshes.length).toBeGreaterThan(0);
  }, SLOW);
});
