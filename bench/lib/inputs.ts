/**
 * Benchmark inputs made in code (or with a native tool from generated data), at a chosen size:
 * PDFs (text, vector drawing, raw images), GeoJSON, GeoTIFF, WAV, a test-pattern video, a
 * Gerber layer, and a large image PDF written straight to disk for the ZIP benchmark.
 */
import { writeFileSync } from "node:fs";
import { makeBloatedPdf, PDFDocument, pcmWav, rgb, StandardFonts } from "./deps";

export { writeImagePdf } from "./deps";

/** Deterministic pseudo-random numbers (mulberry32): the same input on every run and machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua engineering drawing revision sheet scale".split(" ");

/**
 * A text document: `pages` A4 pages, each with a heading, `lines` lines of words and a few
 * vector shapes (so rendering has something to fill). Object streams off, like most producers.
 */
export async function textPdf(pages: number, opts: { lines?: number; label?: string; seed?: number } = {}): Promise<Uint8Array> {
  const { lines = 40, label = "Doc", seed = 1 } = opts;
  const rand = rng(seed);
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`${label} page ${p}`, { x: 50, y: 790, size: 20, font });
    for (let l = 0; l < lines; l++) {
      const text = Array.from({ length: 10 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");
      page.drawText(text, { x: 50, y: 760 - l * 16, size: 10, font });
    }
    for (let k = 0; k < 6; k++) {
      page.drawRectangle({ x: 60 + k * 80, y: 60, width: 60, height: 60 + rand() * 40, color: rgb(rand(), rand(), rand()), borderColor: rgb(0, 0, 0), borderWidth: 1 });
      page.drawCircle({ x: 90 + k * 80, y: 200, size: 20 + rand() * 10, color: rgb(rand(), rand(), rand()) });
    }
  }
  doc.setTitle(`${label} title`);
  return doc.save({ useObjectStreams: false });
}

/** A bloated PDF for pdf.compress (raw images stored again and again): the tests' own maker. */
export const bloatedPdf = makeBloatedPdf;

/** A one-page PDF of a few hundred bytes of text: the batch benchmark's small input. */
export async function smallPdf(n: number): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText(`Batch item ${n}`, { x: 50, y: 780, size: 18, font });
  return new Uint8Array(await doc.save());
}

/** A FeatureCollection of `n` features in EPSG:4326: polygons (5-vertex) and points alternating, with a few properties. */
export function geojson(n: number, seed = 7): Uint8Array {
  const rand = rng(seed);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const x = -10 + rand() * 40;
    const y = 35 + rand() * 25;
    const geometry =
      i % 2 === 0
        ? { type: "Point", coordinates: [round(x), round(y)] }
        : {
            type: "Polygon",
            coordinates: [[[x, y], [x + 0.01, y], [x + 0.01, y + 0.01], [x, y + 0.01], [x, y]].map(([a, b]) => [round(a), round(b)])],
          };
    const properties = { id: i, name: `feature ${i}`, kind: WORDS[i % WORDS.length], value: Math.round(rand() * 1e6) / 100 };
    parts.push(JSON.stringify({ type: "Feature", properties, geometry }));
  }
  const text = `{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},"features":[\n${parts.join(",\n")}\n]}\n`;
  return new TextEncoder().encode(text);
}

function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/**
 * Raw interleaved 8-bit RGB of a smooth pattern plus noise (compressible like a real image,
 * not trivially), plus an ENVI-free way to feed it to GDAL: a .vrt over the raw file.
 */
export function rasterVrt(dir: string, width: number, height: number, seed = 3): string {
  const rand = rng(seed);
  const raw = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width + rand() * 20;
      raw[i + 1] = (y * 255) / height + rand() * 20;
      raw[i + 2] = 128 + 100 * Math.sin((x + y) / 50) + rand() * 20;
    }
  }
  writeFileSync(`${dir}/raster.raw`, raw);
  const band = (n: number) => `  <VRTRasterBand dataType="Byte" band="${n}" subClass="VRTRawRasterBand">
    <SourceFilename relativetoVRT="1">raster.raw</SourceFilename>
    <ImageOffset>${n - 1}</ImageOffset><PixelOffset>3</PixelOffset><LineOffset>${width * 3}</LineOffset>
  </VRTRasterBand>`;
  // UTM 32N, 1 m pixels
  const vrt = `<VRTDataset rasterXSize="${width}" rasterYSize="${height}">
  <SRS>EPSG:25832</SRS>
  <GeoTransform>500000, 1, 0, 5600000, 0, -1</GeoTransform>
${[1, 2, 3].map(band).join("\n")}
</VRTDataset>`;
  writeFileSync(`${dir}/raster.vrt`, vrt);
  return `${dir}/raster.vrt`;
}

/** A 16-bit PCM stereo WAV at 44.1 kHz: a chord with a slow sweep and a little noise (`seconds` long). */
export function wav(seconds: number, seed = 5): Uint8Array {
  const rate = 44_100;
  const rand = rng(seed);
  let s = 0;
  const sample = (i: number, channel: number) => {
    if (channel === 0) {
      const t = i / rate;
      const f = 220 + 110 * Math.sin(t * 0.5);
      s = 0.3 * Math.sin(2 * Math.PI * f * t) + 0.2 * Math.sin(2 * Math.PI * f * 1.5 * t) + 0.1 * Math.sin(2 * Math.PI * 880 * t) + 0.02 * (rand() - 0.5);
      return Math.round(s * 32767);
    }
    return Math.round(s * 0.8 * 32767);
  };
  return pcmWav({ frames: Math.round(seconds * rate), rate, channels: 2, sample });
}

/**
 * A Gerber (RS-274X) copper layer: `pads` flashed pads on a grid and `traces` routed tracks of a
 * few segments each, in mm, 4.6 format. Large enough to time, like a dense board's top copper.
 */
export function gerber(pads: number, traces: number, seed = 11): Uint8Array {
  const rand = rng(seed);
  const c = (mm: number) => String(Math.round(mm * 1e6));
  const lines = ["G04 generated by the Vektor benchmark*", "%FSLAX46Y46*%", "%MOMM*%", "%LPD*%", "%ADD10C,0.200000*%", "%ADD11R,1.200000X0.800000*%", "%ADD12C,1.000000*%", "G01*"];
  lines.push("D11*");
  const cols = Math.ceil(Math.sqrt(pads));
  for (let i = 0; i < pads; i++) lines.push(`X${c((i % cols) * 1.5)}Y${c(Math.floor(i / cols) * 1.5)}D03*`);
  lines.push("D10*");
  const size = cols * 1.5;
  for (let t = 0; t < traces; t++) {
    let x = rand() * size;
    let y = rand() * size;
    lines.push(`X${c(x)}Y${c(y)}D02*`);
    for (let s = 0; s < 4; s++) {
      if (s % 2 === 0) x = Math.min(size, Math.max(0, x + (rand() - 0.5) * 10));
      else y = Math.min(size, Math.max(0, y + (rand() - 0.5) * 10));
      lines.push(`X${c(x)}Y${c(y)}D01*`);
    }
  }
  lines.push("D12*");
  for (let i = 0; i < pads / 4; i++) lines.push(`X${c(rand() * size)}Y${c(rand() * size)}D03*`);
  lines.push("M02*");
  return new TextEncoder().encode(lines.join("\n") + "\n");
}
