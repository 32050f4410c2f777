/** Inputs for the specs: generated in code (PDF with pdf-lib) or read from /fixtures. */
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { FileSpec } from "./web";

export const FIXTURES = join(import.meta.dir, "..", "..", "fixtures");

/** A PDF of `pages` A4 pages, each with one line of text. */
export async function makePdf(pages: number, text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`${text}, page ${i + 1}`, { x: 50, y: 780, size: 18, font });
  doc.setTitle(text);
  return new Uint8Array(await doc.save());
}

/** A file from /fixtures, named as it is there. */
export function fixtureFile(path: string, mime: string): FileSpec {
  return { name: basename(path), mime, bytes: new Uint8Array(readFileSync(join(FIXTURES, path))) };
}

/** A file shipped inside an npm package (fixtures no /fixtures copy is needed for). */
export function packageFile(pkg: string, path: string, mime: string): FileSpec {
  const root = dirname(Bun.resolveSync(`${pkg}/package.json`, import.meta.dir));
  return { name: basename(path), mime, bytes: new Uint8Array(readFileSync(join(root, path))) };
}

/** A small GeoJSON FeatureCollection: three named points and a polygon, in WGS 84. */
export function makeGeoJson(): Uint8Array {
  const point = (name: string, x: number, y: number) => ({ type: "Feature", properties: { name, height: x + y }, geometry: { type: "Point", coordinates: [x, y] } });
  const ring = [[7.0, 50.0], [7.1, 50.0], [7.1, 50.1], [7.0, 50.1], [7.0, 50.0]];
  const fc = {
    type: "FeatureCollection",
    features: [point("a", 7.01, 50.01), point("b", 7.02, 50.02), point("c", 7.03, 50.03), { type: "Feature", properties: { name: "area", height: 0 }, geometry: { type: "Polygon", coordinates: [ring] } }],
  };
  return new TextEncoder().encode(JSON.stringify(fc));
}

/** A mono 16-bit PCM WAV: `seconds` of a 440 Hz tone at `rate` Hz. */
export function makeWav(seconds = 1, rate = 16_000): Uint8Array {
  const samples = Math.round(seconds * rate);
  const out = new Uint8Array(44 + samples * 2);
  const view = new DataView(out.buffer);
  const text = (at: number, s: string) => [...s].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  text(0, "RIFF");
  view.setUint32(4, 36 + samples * 2, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) view.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12_000), true);
  return out;
}
