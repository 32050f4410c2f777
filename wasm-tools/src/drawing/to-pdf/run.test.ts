import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drawingFixture, DWG_FIXTURES, DXF_FIXTURES, runDrawing } from "../test-support";

const SLOW = 120_000;
const dir = mkdtempSync(join(tmpdir(), "drawing-pdf-"));

async function pdfinfo(name: string, params: Record<string, unknown> = {}): Promise<Record<string, string>> {
  const [out] = await runDrawing("drawing.to-pdf", [drawingFixture(name)], params);
  expect(out.mime).toBe("application/pdf");
  const path = join(dir, `${name}.pdf`);
  writeFileSync(path, out.bytes);
  const result = spawnSync("pdfinfo", [path], { encoding: "utf8" });
  expect(result.status).toBe(0);
  return Object.fromEntries(result.stdout.split("\n").filter((l) => l.includes(":")).map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]));
}

describe("drawing.to-pdf", () => {
  test.each([...DWG_FIXTURES.map(([name]) => name), ...DXF_FIXTURES])("%s opens in pdfinfo as one A4 page", async (name) => {
    const info = await pdfinfo(name);
    expect(info.Pages).toBe("1");
    expect(info["Page size"]).toMatch(/^(595\.28 x 841\.89|841\.89 x 595\.28) pts \(A4\)/);
  }, SLOW);

  test("paper and orientation: A3 portrait, letter landscape, auto follows the drawing", async () => {
    expect((await pdfinfo("example_2018.dwg", { paper: "A3", orientation: "portrait" }))["Page size"]).toMatch(/^841\.89 x 1190\.55 pts \(A3\)/);
    expect((await pdfinfo("sample_r14.dxf", { paper: "letter", orientation: "landscape" }))["Page size"]).toMatch(/^792 x 612 pts \(letter\)/);
    // example_2018 is wider than tall: landscape by default, and auto keeps its proportions
    expect((await pdfinfo("example_2018.dwg"))["Page size"]).toMatch(/^841\.89 x 595\.28 pts/);
    expect((await pdfinfo("example_2018.dwg", { paper: "auto" }))["Page size"]).toMatch(/^1000 x \d+/);
  }, SLOW);
});
