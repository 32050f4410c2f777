/** Inputs for the specs: generated in code (PDF with pdf-lib) or read from /fixtures. */
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { linePdf } from "@vektor/wasm-tools/testing/pdf-fixtures";
import { toneWav } from "@vektor/wasm-tools/testing/wav";
import type { FileSpec } from "./web";

export const FIXTURES = join(import.meta.dir, "..", "..", "fixtures");

/** A PDF of `pages` A4 pages, each with one line of text. */
export function makePdf(pages: number, text: string): Promise<Uint8Array> {
  return linePdf(pages, (n) => `${text}, page ${n}`, text);
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
  return toneWav({ seconds, rate, amplitude: 12_000 });
}
