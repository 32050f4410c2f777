import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { text } from "../../testing/run-tool";
import { drawingFixture, DWG_FIXTURES, DXF_FIXTURES, runDrawing } from "../test-support";

const SLOW = 120_000;

async function svgOf(name: string, params: Record<string, unknown> = {}): Promise<string> {
  const [out] = await runDrawing("drawing.to-svg", [drawingFixture(name)], params);
  expect(out.mime).toBe("image/svg+xml");
  return text(out);
}

async function extentsOf(name: string): Promise<{ min: number[]; max: number[] }> {
  const [out] = await runDrawing("drawing.info", [drawingFixture(name)]);
  return JSON.parse(text(out)).extents;
}

/** Every coordinate pair of the paths, points included (SVG y is the drawing's -y). */
function coordinates(svg: string): [number, number][] {
  const pairs: [number, number][] = [];
  for (const [, d] of svg.matchAll(/ d="([^"]+)"/g)) for (const [, x, y] of d.matchAll(/(-?[\d.e+-]+) (-?[\d.e+-]+)/g)) pairs.push([Number(x), -Number(y)]);
  return pairs;
}

describe("drawing.to-svg", () => {
  test.each([...DWG_FIXTURES.map(([name]) => name), ...DXF_FIXTURES])("%s: well-formed, drawn inside its extents", async (name) => {
    const svg = await svgOf(name);
    expect(XMLValidator.validate(svg)).toBe(true);
    const root = new XMLParser({ ignoreAttributes: false }).parse(svg).svg;
    const [x, y, w, h] = String(root["@_viewBox"]).split(" ").map(Number);
    const { min, max } = await extentsOf(name);
    // The view box holds the extents (y flipped) with a small margin.
    expect(x).toBeLessThanOrEqual(min[0]);
    expect(x + w).toBeGreaterThanOrEqual(max[0]);
    expect(y).toBeLessThanOrEqual(-max[1]);
    expect(y + h).toBeGreaterThanOrEqual(-min[1]);
    const points = coordinates(svg);
    expect(points.length).toBeGreaterThan(0);
    const slack = Math.max(max[0] - min[0], max[1] - min[1]) * 1e-6 + 1;
    for (const [px, py] of points) {
      expect(px).toBeGreaterThanOrEqual(min[0] - slack);
      expect(px).toBeLessThanOrEqual(max[0] + slack);
      expect(py).toBeGreaterThanOrEqual(min[1] - slack);
      expect(py).toBeLessThanOrEqual(max[1] + slack);
    }
  }, SLOW);

  test("one group per layer, colours by layer and ACI, text and the hatch drawn", async () => {
    const svg = await svgOf("example_2018.dwg");
    const layers = [...svg.matchAll(/<g data-layer="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(layers)).toEqual(new Set(["0", "Tavolo 2", "Tavolo 3", "Defpoints"]));
    expect(svg).toContain('stroke="#ffff00"'); // layer Tavolo 2 is ACI 2, yellow
    expect(svg).toContain(">teksto simpla</tspan>");
    expect(svg).toContain('data-entity="HATCH"');
    expect(svg).toContain('data-entity="SPLINE"');
    expect(svg).toContain('<rect ');
  }, SLOW);

  test("layers keeps only the named layers; background none leaves no backdrop", async () => {
    const svg = await svgOf("example_2018.dxf", { layers: ["Tavolo 2"], background: "none" });
    expect([...svg.matchAll(/<g data-layer="([^"]+)"/g)].map((m) => m[1])).toEqual(["Tavolo 2"]);
    expect(svg).not.toContain("<rect ");
  }, SLOW);
});
