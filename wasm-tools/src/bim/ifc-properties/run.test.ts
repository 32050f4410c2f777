import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { expectToolError, text } from "../../testing/run-tool";
import { ifcFixture, runBim } from "../test-support";
import { csvField } from "./run";

/** Generous: the first test loads the WASM engine, and CI machines can be busy. */
const SLOW = 60_000;

interface Element {
  expressId: number;
  globalId: string | null;
  type: string;
  name: string | null;
  typeName: string | null;
  propertySets: { name: string | null; kind: string; source: string; properties: { name: string; value: string | number | boolean | null }[] }[];
}
interface Report {
  schema: string;
  elementCount: number;
  elements: Element[];
}

async function properties(file: string, params: Record<string, unknown> = {}): Promise<Report> {
  const [out] = await runBim("bim.ifc-properties", [ifcFixture(file)], params);
  expect(out.mime).toBe("application/json");
  return JSON.parse(text(out)) as Report;
}

/** A minimal RFC 4180 reader (quoted fields, doubled quotes, CRLF rows) for checking the CSV output. */
function parseCsv(source: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && source[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  return rows;
}

function value(element: Element | undefined, set: string, property: string) {
  return element?.propertySets.find((s) => s.name === set)?.properties.find((p) => p.name === property)?.value;
}

describe("bim.ifc-properties", () => {
  test("FZK-Haus (IFC4): elements with GlobalId, type, Name and typed property values", async () => {
    const report = await properties("AC20-FZK-Haus.ifc");
    expect(report.schema).toBe("IFC4");
    expect(report.elementCount).toBe(report.elements.length);
    expect(report.elements.length).toBe(127); // every IfcProduct (bim.ifc-info counts them from the file)
    const building = report.elements.find((e) => e.type === "IfcBuilding");
    expect(building).toMatchObject({ globalId: "2hQBAVPOr5VxhS3Jl0O47h", name: "FZK-Haus" });
    // #...=IFCPROPERTYSINGLEVALUE('IsPermanentID',$,IFCBOOLEAN(.T.),$); 'BuildingID' IFCIDENTIFIER('5678')
    expect(value(building, "Pset_BuildingCommon", "IsPermanentID")).toBe(true);
    expect(value(building, "Pset_BuildingCommon", "BuildingID")).toBe("5678");
    const site = report.elements.find((e) => e.type === "IfcSite");
    expect(site?.name).toBe("Gelaende");
    expect(value(site, "Pset_SiteCommon", "BuildingHeightLimit")).toBe(9);
    expect(site?.propertySets.find((s) => s.name === "BaseQuantities")?.kind).toBe("quantities");
    const wall = report.elements.find((e) => e.globalId === "2XPyKWY018sA1ygZKgQPtU");
    expect(wall).toMatchObject({ expressId: 15042, type: "IfcWallStandardCase", name: "Wand-Int-ERDG-4" });
    expect(wall?.propertySets.length).toBeGreaterThan(0);
    expect(report.elements.map((e) => e.expressId)).toEqual(report.elements.map((e) => e.expressId).sort((a, b) => a - b));
  }, SLOW);

  test("type properties come from the type object and can be left out; type names are decoded", async () => {
    const all = await properties("example.ifc");
    const column = all.elements.find((e) => e.type === "IfcColumn");
    expect(column?.typeName).toBe("Concrete-Rectangular-Column:300x300");
    const fromType = column?.propertySets.find((s) => s.name === "Pset_ColumnCommon" && s.source === "type");
    expect(fromType?.properties).toContainEqual({ name: "Reference", value: "300x300" });
    expect(fromType?.properties).toContainEqual({ name: "LoadBearing", value: true });
    const own = await properties("example.ifc", { includeTypeProperties: false });
    expect(own.elements.every((e) => e.propertySets.every((s) => s.source === "element"))).toBe(true);
    const count = (r: Report) => r.elements.reduce((n, e) => n + e.propertySets.length, 0);
    expect(count(own)).toBeLessThan(count(all));
    // IFC2X3 and the file's \X2\00FC\X0\ escapes: IFCDOORTYPE(...,'IFC T\X2\00FC\X0\r - Eine \X2\00D6\X0\ffnunsgrichtung',...)
    const fzk = await properties("AC20-FZK-Haus.ifc");
    expect(fzk.elements.filter((e) => e.type === "IfcDoor").map((e) => e.typeName)).toContain("IFC Tür - Eine Öffnunsgrichtung");
    const duplex = await properties("duplex.ifc");
    expect(duplex.schema).toBe("IFC2X3");
    expect(duplex.elements.find((e) => e.globalId === "1hOSvn6df7F8_7GcBWlRGQ")).toMatchObject({ type: "IfcDoor", name: "M_Single-Flush:1250mm x 2010mm:1250mm x 2010mm:146596" });
  }, SLOW);

  test("CSV: one row per property, the same data as the JSON, RFC 4180 quoting", async () => {
    const json = await properties("AC20-FZK-Haus.ifc");
    const [out] = await runBim("bim.ifc-properties", [ifcFixture("AC20-FZK-Haus.ifc")], { format: "csv" });
    expect(out.name).toBe("AC20-FZK-Haus-properties.csv");
    expect(out.mime).toBe("text/csv");
    const rows = parseCsv(text(out));
    expect(rows[0]).toEqual(["GlobalId", "ExpressId", "Type", "Name", "PropertySet", "SetKind", "Source", "Property", "Value"]);
    const expected = json.elements.reduce((n, e) => n + Math.max(1, e.propertySets.reduce((m, s) => m + s.properties.length, 0)), 0);
    expect(rows.length - 1).toBe(expected);
    expect(rows.every((r) => r.length === 9)).toBe(true);
    expect(rows).toContainEqual(["2hQBAVPOr5VxhS3Jl0O47h", "434", "IfcBuilding", "FZK-Haus", "Pset_BuildingCommon", "properties", "element", "IsPermanentID", "true"]);
    expect(new Set(rows.slice(1).map((r) => r[0])).size).toBe(json.elements.length);
    expect(csvField('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvField(" padded")).toBe('" padded"');
    expect(csvField(2.5)).toBe("2.5");
    expect(csvField(null)).toBe("");
  }, SLOW);

  test("bad inputs and params", async () => {
    const example = new TextDecoder().decode(ifcFixture("example.ifc").bytes);
    const bytes = new TextEncoder().encode(example.replace("FILE_SCHEMA(('IFC2X3'));", "FILE_SCHEMA(('IFC9'));"));
    await expectToolError(runBim("bim.ifc-properties", [{ name: "a.ifc", bytes }]), "INPUT_UNSUPPORTED", /IFC9/);
    await expectToolError(runBim("bim.ifc-properties", [ifcFixture("example.ifc")], { format: "xlsx" }), "PARAMS_INVALID", /format/);
    await expectToolError(runBim("bim.ifc-properties", [{ name: "a.ifc", bytes: new Uint8Array(0) }]), "INPUT_EMPTY");
  }, SLOW);
});
