import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { expectToolError, text } from "../../testing/run-tool";
import { ifcFixture, runBim } from "../test-support";

/** Generous: the first test loads the WASM engine, and CI machines can be busy. */
const SLOW = 60_000;

interface Tree {
  type: string;
  name: string | null;
  longName: string | null;
  globalId: string | null;
  elevation?: number;
  elementCount: number;
  children: Tree[];
}
interface Info {
  schema: string;
  header: { description: string[]; timeStamp: string | null; originatingSystem: string | null; preprocessor: string | null; author: string[] };
  lengthUnit: string | null;
  entityCount: number;
  elementCount: number;
  typeCounts: Record<string, number>;
  elementsWithGeometry: number;
  triangles: number;
  spatialTree: Tree | null;
}

async function info(file: string): Promise<Info> {
  const [out] = await runBim("bim.ifc-info", [ifcFixture(file)]);
  expect(out.mime).toBe("application/json");
  expect(out.name).toBe(file.replace(/\.ifc$/, "-info.json"));
  return JSON.parse(text(out)) as Info;
}

/** Instances of an entity type counted straight from the file text (`#12=IFCWALL(` or `#12= IFCWALL(`). */
function countInFile(file: string, type: string): number {
  const source = new TextDecoder("latin1").decode(ifcFixture(file).bytes);
  return source.match(new RegExp(`#\\d+\\s*=\\s*${type.toUpperCase()}\\s*\\(`, "g"))?.length ?? 0;
}

function walk(tree: Tree): Tree[] {
  return [tree, ...tree.children.flatMap(walk)];
}

describe("bim.ifc-info", () => {
  test("IFC4 (FZK-Haus): schema, header, counts that match the file, storeys by name", async () => {
    const report = await info("AC20-FZK-Haus.ifc");
    expect(report.schema).toBe("IFC4");
    expect(report.lengthUnit).toBe("METRE");
    expect(report.header.timeStamp).toBe("2016-12-21T17:54:06");
    expect(report.header.originatingSystem).toContain("ARCHICAD");
    expect(report.header.author).toEqual(["Architect"]);
    expect(report.typeCounts.IfcWindow).toBe(11);
    for (const [type, n] of Object.entries(report.typeCounts)) expect([type, n]).toEqual([type, countInFile("AC20-FZK-Haus.ifc", type)]);
    expect(report.elementCount).toBe(Object.values(report.typeCounts).reduce((a, b) => a + b, 0));
    expect(Object.keys(report.typeCounts)).toEqual(Object.keys(report.typeCounts).sort());
    const tree = report.spatialTree;
    expect(tree?.type).toBe("IfcProject");
    expect(tree?.name).toBe("Projekt-FZK-Haus");
    const nodes = tree ? walk(tree) : [];
    expect(nodes.filter((n) => n.type === "IfcSite").map((n) => n.name)).toEqual(["Gelaende"]);
    expect(nodes.filter((n) => n.type === "IfcBuilding").map((n) => n.name)).toEqual(["FZK-Haus"]);
    const storeys = nodes.filter((n) => n.type === "IfcBuildingStorey");
    expect(storeys.map((s) => [s.name, s.elevation])).toEqual([
      ["Erdgeschoss", 0],
      ["Dachgeschoss", 2.7],
    ]);
    expect(storeys.every((s) => s.elementCount > 0)).toBe(true);
    expect(report.elementsWithGeometry).toBeGreaterThan(50);
    expect(report.elementsWithGeometry).toBeLessThanOrEqual(report.elementCount);
    expect(report.triangles).toBeGreaterThan(report.elementsWithGeometry);
  }, SLOW);

  test("IFC2X3 (duplex): four storeys with their elevations, spaces under storeys", async () => {
    const report = await info("duplex.ifc");
    expect(report.schema).toBe("IFC2X3");
    expect(report.lengthUnit).toBe("METRE");
    expect(report.typeCounts.IfcDoor).toBe(countInFile("duplex.ifc", "IfcDoor"));
    expect(report.typeCounts.IfcWallStandardCase).toBe(countInFile("duplex.ifc", "IfcWallStandardCase"));
    const nodes = report.spatialTree ? walk(report.spatialTree) : [];
    const storeys = nodes.filter((n) => n.type === "IfcBuildingStorey");
    expect(storeys.map((s) => s.name).sort()).toEqual(["Level 1", "Level 2", "Roof", "T/FDN"]);
    expect(storeys.find((s) => s.name === "T/FDN")?.elevation).toBe(-1.25);
    const spaces = nodes.filter((n) => n.type === "IfcSpace");
    expect(spaces.length).toBe(report.typeCounts.IfcSpace);
    expect(spaces.map((s) => s.longName)).toContain("Kitchen");
    expect(report.spatialTree?.longName).toBe("Duplex Apartment");
  }, SLOW);

  test("a model in millimetres reports its unit; element counts of the small example", async () => {
    const report = await info("example.ifc");
    expect(report.schema).toBe("IFC2X3");
    expect(report.lengthUnit).toBe("MILLIMETRE");
    expect(report.typeCounts.IfcColumn).toBe(countInFile("example.ifc", "IfcColumn"));
    expect(report.typeCounts.IfcBeam).toBe(countInFile("example.ifc", "IfcBeam"));
    expect(report.entityCount).toBe(countInFile("example.ifc", "[A-Z0-9_]+"));
  }, SLOW);

  test("unknown schema, non-IFC and CAD STEP inputs get clear errors", async () => {
    const example = new TextDecoder().decode(ifcFixture("example.ifc").bytes);
    const ifc9 = new TextEncoder().encode(example.replace("FILE_SCHEMA(('IFC2X3'));", "FILE_SCHEMA(('IFC9'));"));
    await expectToolError(runBim("bim.ifc-info", [{ name: "future.ifc", bytes: ifc9 }]), "INPUT_UNSUPPORTED", /"future\.ifc" declares IFC schema "IFC9".*Supported: IFC2X3, IFC4, IFC4X3/);
    await expectToolError(runBim("bim.ifc-info", [{ name: "a.ifc", bytes: new TextEncoder().encode("%PDF-1.4\n%%EOF\n") }]), "INPUT_INVALID", /not an IFC file/);
    await expectToolError(runBim("bim.ifc-info", [{ name: "a.ifc", bytes: new TextEncoder().encode("ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n") }]), "INPUT_INVALID", /no FILE_SCHEMA/);
    const cad = example.replace("FILE_SCHEMA(('IFC2X3'));", "FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));");
    await expectToolError(runBim("bim.ifc-info", [{ name: "part.stp", bytes: new TextEncoder().encode(cad) }]), "INPUT_UNSUPPORTED", /a STEP file, but not IFC/);
  }, SLOW);
});
