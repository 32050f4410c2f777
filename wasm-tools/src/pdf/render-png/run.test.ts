import "../../testing/node-host";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import { requireBinary, runCli } from "../../testing/cli";
import { withTempFile } from "../../testing/fixtures";
import { makeTextPdf } from "../../testing/pdf-fixtures";
import { expectToolError, runTool } from "../../testing/run-tool";

/** Width, height, colour type and the share of dark pixels of an 8-bit RGB(A) PNG, decoded here (not by mupdf). */
function readPng(png: Uint8Array): { width: number; height: number; colorType: number; dark: number } {
  expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  let colorType = 0;
  const idat: Uint8Array[] = [];
  while (at < png.length) {
    const length = v.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = v.getUint32(at + 8);
      height = v.getUint32(at + 12);
      expect(png[at + 16]).toBe(8);
      colorType = png[at + 17];
    }
    if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const channels = colorType === 6 ? 4 : 3;
  const rowBytes = width * channels;
  expect(raw.length).toBe((rowBytes + 1) * height);
  const pixels = unfilter(raw, rowBytes, height, channels);
  let dark = 0;
  for (let i = 0; i < width * height; i++) if (pixels[i * channels] < 128) dark++;
  return { width, height, colorType, dark: dark / (width * height) };
}

/** Undoes PNG's per-row filters (none, sub, up, average, paeth). */
function unfilter(raw: Uint8Array, rowBytes: number, height: number, bpp: number): Uint8Array {
  const out = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (rowBytes + 1)];
    const src = raw.subarray(y * (rowBytes + 1) + 1, (y + 1) * (rowBytes + 1));
    for (let x = 0; x < rowBytes; x++) {
      const a = x >= bpp ? out[y * rowBytes + x - bpp] : 0;
      const b = y > 0 ? out[(y - 1) * rowBytes + x] : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * rowBytes + x - bpp] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter];
      if (predictor === undefined) throw new Error(`bad PNG filter ${filter}`);
      out[y * rowBytes + x] = (src[x] + predictor) & 0xff;
    }
  }
  return out;
}

/** Pixel size poppler renders the same page at. */
function popplerSize(pdf: Uint8Array, dpi: number, page: number): [number, number] {
  return withTempFile("p.pdf", pdf, (path) => {
    const out = path.replace(/p\.pdf$/, "out");
    runCli(["pdftoppm", "-png", "-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile", path, out]);
    const png = new Uint8Array(readFileSync(`${out}.png`));
    const v = new DataView(png.buffer);
    return [v.getUint32(16), v.getUint32(20)];
  });
}

describe("pdf.render-png", () => {
  test("renders every page at the requested dpi with its text visible", async () => {
    const pdf = await makeTextPdf(2, "Render", [
      [595, 842],
      [842, 595],
    ]);
    const outs = await runTool("pdf.render-png", [{ name: "plan.pdf", bytes: pdf }], { dpi: 150 });
    expect(outs.map((o) => o.name)).toEqual(["plan-p1.png", "plan-p2.png"]);
    expect(outs[0].mime).toBe("image/png");
    const first = readPng(outs[0].bytes);
    const second = readPng(outs[1].bytes);
    expect(first.colorType).toBe(2);
    expect(Math.abs(first.width - (595 * 150) / 72)).toBeLessThan(2);
    expect(Math.abs(first.height - (842 * 150) / 72)).toBeLessThan(2);
    expect(second.width).toBe(first.height);
    expect(first.dark).toBeGreaterThan(0.001); // the text is drawn
    expect(first.dark).toBeLessThan(0.2); // on a white page
    if (requireBinary("pdftoppm", "poppler-utils")) {
      const [w, h] = popplerSize(pdf, 150, 1);
      expect(Math.abs(first.width - w)).toBeLessThanOrEqual(1);
      expect(Math.abs(first.height - h)).toBeLessThanOrEqual(1);
    }
  });

  test("renders only the selected pages, with alpha when asked", async () => {
    const pdf = await makeTextPdf(3);
    const outs = await runTool("pdf.render-png", [{ name: "plan.pdf", bytes: pdf }], { dpi: 36, pages: "3", alpha: true });
    expect(outs.map((o) => o.name)).toEqual(["plan-p3.png"]);
    const png = readPng(outs[0].bytes);
    expect(png.colorType).toBe(6);
    expect(Math.abs(png.width - (595 * 36) / 72)).toBeLessThan(2);
  });

  test("limits dpi and pages", async () => {
    const input = [{ name: "plan.pdf", bytes: await makeTextPdf(1) }];
    await expectToolError(runTool("pdf.render-png", input, { dpi: 600 }), "PARAMS_INVALID", /dpi/);
    await expectToolError(runTool("pdf.render-png", input, { pages: "2" }), "PARAMS_INVALID", /last page/);
  });
});
