/** Bad drawings get a catalog code and a message naming the problem, quickly, and the next run is unaffected. */
import "../testing/node-host";
import { describe, expect, test } from "bun:test";
import { expectToolError, text } from "../testing/run-tool";
import { drawingFixture, runDrawing } from "./test-support";

const SLOW = 120_000;
const encode = (s: string) => new TextEncoder().encode(s);
const dwg = () => drawingFixture("example_2018.dwg").bytes;

/** The same 2018 drawing with another version string in its first six bytes. */
function withVersion(version: string): Uint8Array {
  const bytes = dwg().slice();
  bytes.set(encode(version), 0);
  return bytes;
}

/** An ASCII DXF of `count` LINE entities, written in code. */
function manyLines(count: number): Uint8Array {
  const lines = ["  0", "SECTION", "  2", "ENTITIES"];
  for (let i = 0; i < count; i++) lines.push("  0", "LINE", "  8", "0", " 10", String(i), " 20", "0", " 11", String(i + 1), " 21", "1");
  lines.push("  0", "ENDSEC", "  0", "EOF", "");
  return encode(lines.join("\n"));
}

describe("drawing tools on bad input", () => {
  test("a truncated DWG is INPUT_INVALID, and the next DWG reads", async () => {
    await expectToolError(runDrawing("drawing.info", [{ name: "cut.dwg", bytes: dwg().slice(0, 20_000) }]), "INPUT_INVALID", /damaged or truncated/);
    await expectToolError(runDrawing("drawing.to-svg", [{ name: "head.dwg", bytes: dwg().slice(0, 200) }]), "INPUT_INVALID", /damaged or truncated/);
    const [out] = await runDrawing("drawing.info", [drawingFixture("example_2018.dwg")]);
    expect(JSON.parse(text(out)).entityCount).toBe(65);
  }, SLOW);

  test("a DWG of a version LibreDWG does not read is INPUT_UNSUPPORTED naming the version", async () => {
    await expectToolError(runDrawing("drawing.info", [{ name: "r9.dwg", bytes: withVersion("AC1003") }]), "INPUT_UNSUPPORTED", /AC1003 \(AutoCAD R9\) is not supported/);
    await expectToolError(runDrawing("drawing.info", [{ name: "future.dwg", bytes: withVersion("AC1040") }]), "INPUT_UNSUPPORTED", /AC1040/);
  }, SLOW);

  test("a DXF with a broken section is INPUT_INVALID", async () => {
    const dxf = new TextDecoder().decode(drawingFixture("sample_r14.dxf").bytes);
    const broken = encode(dxf.slice(0, dxf.indexOf("ENTITIES") + 200));
    await expectToolError(runDrawing("drawing.to-geojson", [{ name: "broken.dxf", bytes: broken }]), "INPUT_INVALID", /DXF could not be read/);
  }, SLOW);

  test("a POLYLINE the section ends before its SEQEND is read, not looped on (dxf-parser's own handler never returns)", async () => {
    const dxf = ["  0", "SECTION", "  2", "ENTITIES", "  0", "POLYLINE", "  8", "0", " 66", "1", " 70", "1", "  0", "VERTEX", "  8", "0", " 10", "0", " 20", "0", "  0", "VERTEX", "  8", "0", " 10", "5", " 20", "0", "  0", "ENDSEC", "  0", "EOF", ""];
    const [out] = await runDrawing("drawing.info", [{ name: "open.dxf", bytes: encode(dxf.join("\n")) }]);
    expect(JSON.parse(text(out)).entityCounts).toEqual({ POLYLINE: 1 });
  }, SLOW);

  test("a file renamed .dwg that is no drawing is INPUT_INVALID", async () => {
    await expectToolError(runDrawing("drawing.to-svg", [{ name: "report.dwg", bytes: encode("%PDF-1.7\n%binary\n") }]), "INPUT_INVALID", /neither a DWG .* nor a DXF/);
  });

  test("a drawing of a million entities is INPUT_TOO_LARGE before it is parsed; the next run is unaffected", async () => {
    await expectToolError(runDrawing("drawing.to-svg", [{ name: "million.dxf", bytes: manyLines(1_000_000) }]), "INPUT_TOO_LARGE", /1,000,00\d objects; the drawing tools read at most 500,000/);
    const [out] = await runDrawing("drawing.to-svg", [{ name: "thousand.dxf", bytes: manyLines(1000) }]);
    expect(text(out)).toContain('data-entity="LINE"');
  }, SLOW);

  test("layout: an unknown name is PARAMS_INVALID listing the layouts; a layout holding only its paper viewport has nothing to draw", async () => {
    await expectToolError(runDrawing("drawing.to-svg", [drawingFixture("example_2018.dwg")], { layout: "Sheet 9" }), "PARAMS_INVALID", /no layout "Sheet 9"; its layouts are Model, Layout1, Layout2/);
    await expectToolError(runDrawing("drawing.to-pdf", [drawingFixture("example_2018.dwg")], { layout: "Layout1" }), "INPUT_EMPTY", /nothing to draw in layout Layout1/);
    const [out] = await runDrawing("drawing.to-svg", [drawingFixture("example_2018.dwg")], { layout: "model" });
    expect(text(out)).toContain('data-layer="Tavolo 3"');
  }, SLOW);

  test("a drawing with nothing on the chosen layers is INPUT_EMPTY", async () => {
    await expectToolError(runDrawing("drawing.to-svg", [drawingFixture("sample_r14.dxf")], { layers: ["NO SUCH LAYER"] }), "INPUT_EMPTY", /nothing to draw on the layers NO SUCH LAYER in its model space/);
  }, SLOW);
});
