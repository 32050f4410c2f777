/**
 * The signature check against real files: CAD, BIM and point clouds from the repo's fixtures/ and from
 * the packages that ship them (occt-import-js, @tracespace/fixtures), documents and datasets made
 * by real writers (pdf-lib, flatgeobuf, fflate, SQLite), and complete small files written below
 * byte by byte where no package writes the format. Every written file was checked once with
 * ffprobe, ImageMagick or file(1) when it was added.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { zipSync } from "fflate";
import { serialize as toFlatGeobuf } from "flatgeobuf/lib/mjs/geojson.js";
import { FORMATS, type FormatId } from "@vektor/shared/formats";
import { linePdf } from "@vektor/wasm-tools/testing/pdf-fixtures";
import { toneWav } from "@vektor/wasm-tools/testing/wav";
import { checkSignature, matchesFormat, SAMPLE_BYTES, type Sample } from "./signature";

/** What confirm reads: up to SAMPLE_BYTES from each end. */
function sampleOf(bytes: Uint8Array): Sample {
  const tailStart = Math.max(0, bytes.length - SAMPLE_BYTES);
  return { head: bytes.subarray(0, SAMPLE_BYTES), tail: bytes.subarray(tailStart), size: bytes.length };
}

const read = (path: string | URL) => new Uint8Array(readFileSync(path));
const shared = (path: string) => read(new URL(`../../../../fixtures/${path}`, import.meta.url));
const packageDir = (name: string) => dirname(Bun.resolveSync(`${name}/package.json`, import.meta.dir));
const OCCT = join(packageDir("occt-import-js"), "test/testfiles");
const TRACESPACE = packageDir("@tracespace/fixtures");
const occt = (path: string) => read(join(OCCT, path));
const text = (s: string) => new TextEncoder().encode(s);

// --- Writers for the formats no package ships: each writes a complete, valid file.

type Part = string | number[] | Uint8Array;

function cat(...parts: Part[]): Uint8Array {
  const chunks = parts.map((p) =>
    typeof p === "string" ? Uint8Array.from(p, (c) => c.charCodeAt(0)) : Uint8Array.from(p),
  );
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  chunks.reduce((at, c) => (out.set(c, at), at + c.length), 0);
  return out;
}

const le16 = (n: number) => [n & 255, (n >>> 8) & 255];
const le32 = (n: number) => [...le16(n & 0xffff), ...le16(n >>> 16)];
const be16 = (n: number) => le16(n).reverse();
const be32 = (n: number) => le32(n).reverse();
const zeros = (n: number) => new Array<number>(n).fill(0);
const f64 = (n: number, little = true) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, n, little);
  return b;
};

/** MSB-first CRC with zero init, as Ogg (32-bit) and FLAC (8- and 16-bit) use it. */
function crc(width: number, poly: number, data: Uint8Array): number {
  const top = 1 << (width - 1);
  const mask = width === 32 ? -1 : (1 << width) - 1;
  let c = 0;
  for (const byte of data) {
    c ^= byte << (width - 8);
    for (let k = 0; k < 8; k++) c = (c & top ? (c << 1) ^ poly : c << 1) & mask;
  }
  return c >>> 0;
}

/** 16-bit mono PCM, a 440 Hz tone. */
const wav = () => toneWav({ frames: 800, rate: 8000, amplitude: 8000 });

/** MPEG-1 Layer III frames of silence: 128 kbit/s, 44.1 kHz, mono; zero side info decodes as silence. */
function mp3(frames = 10): Uint8Array {
  const frame = cat([0xff, 0xfb, 0x90, 0xc4], zeros(417 - 4));
  return cat(...new Array(frames).fill(frame));
}

function oggPage(type: number, granule: number, seq: number, packets: Uint8Array[]): Uint8Array {
  const lacing = packets.map((p) => p.length); // every packet here is under 255 bytes
  const page = cat("OggS", [0, type], le32(granule), le32(0), le32(0x766b), le32(seq), le32(0), [lacing.length], lacing, ...packets);
  page.set(le32(crc(32, 0x04c11db7, page)), 22);
  return page;
}

const OPUS_HEAD = cat("OpusHead", [1, 1], le16(312), le32(48000), le16(0), [0]);

/** Ogg Opus: the identification and comment headers, then five 20 ms silence packets. */
function opus(): Uint8Array {
  const tags = cat("OpusTags", le32(6), "vektor", le32(0));
  const silence = Array.from({ length: 5 }, () => Uint8Array.from([0xf8, 0xff, 0xfe]));
  return cat(oggPage(2, 0, 0, [OPUS_HEAD]), oggPage(0, 0, 1, [tags]), oggPage(4, 312 + 5 * 960, 2, silence));
}

/** FLAC: STREAMINFO and one frame of 192 silent 16-bit mono samples (a CONSTANT subframe). */
function flac(): Uint8Array {
  const rate = 44100;
  // block sizes, unknown frame sizes, then 20 bits rate | 3 bits channels-1 (0) | 5 bits depth-1 (15) | 36 bits samples
  const packed = [rate >>> 12, (rate >>> 4) & 255, ((rate & 15) << 4) | (15 >> 4), (15 & 15) << 4];
  const streaminfo = cat(be16(192), be16(192), zeros(6), packed, be32(192), zeros(16));
  const header = cat([0xff, 0xf8, 0x19, 0x08, 0x00]);
  const frame = cat(header, [crc(8, 0x07, header)], [0x00, 0x00, 0x00]);
  return cat("fLaC", [0x80, 0, 0, streaminfo.length], streaminfo, frame, be16(crc(16, 0x8005, frame)));
}

const box = (type: string, ...parts: Part[]) => {
  const body = cat(...parts);
  return cat(be32(8 + body.length), type, body);
};

/** ISO BMFF: ftyp and a movie header with no tracks (an empty but valid movie). */
function mp4(): Uint8Array {
  const matrix = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000].flatMap(be32);
  const times = [0, 0, 1000, 0].flatMap(be32); // created, modified, timescale, duration
  const mvhd = box("mvhd", zeros(4), times, be32(0x10000), be16(0x100), zeros(10), matrix, zeros(24), be32(1));
  return cat(box("ftyp", "isom", be32(512), "isom", "iso2", "mp41"), box("moov", mvhd));
}

const ebml = (id: number[], ...parts: Part[]) => {
  const body = cat(...parts);
  const size = body.length < 0x7f ? [0x80 | body.length] : [0x40 | (body.length >> 8), body.length & 255];
  return cat(id, size, body);
};

/** WebM: EBML header, then a Segment with Info, one Opus track and a cluster of three silent packets. */
function webm(): Uint8Array {
  const header = ebml([0x1a, 0x45, 0xdf, 0xa3],
    ebml([0x42, 0x86], [1]), ebml([0x42, 0xf7], [1]), ebml([0x42, 0xf2], [4]), ebml([0x42, 0xf3], [8]),
    ebml([0x42, 0x82], "webm"), ebml([0x42, 0x87], [4]), ebml([0x42, 0x85], [2]));
  const info = ebml([0x15, 0x49, 0xa9, 0x66],
    ebml([0x2a, 0xd7, 0xb1], [0x0f, 0x42, 0x40]), ebml([0x4d, 0x80], "vektor"), ebml([0x57, 0x41], "vektor"));
  const audio = ebml([0xe1], ebml([0xb5], f64(48000, false)), ebml([0x9f], [1]));
  const track = ebml([0xae], ebml([0xd7], [1]), ebml([0x73, 0xc5], [1]), ebml([0x83], [2]),
    ebml([0x86], "A_OPUS"), ebml([0x63, 0xa2], OPUS_HEAD), audio);
  const blocks = [0, 20, 40].map((ms) => ebml([0xa3], [0x81], be16(ms), [0x80, 0xf8, 0xff, 0xfe]));
  const cluster = ebml([0x1f, 0x43, 0xb6, 0x75], ebml([0xe7], [0]), ...blocks);
  return cat(header, ebml([0x18, 0x53, 0x80, 0x67], info, ebml([0x16, 0x54, 0xae, 0x6b], track), cluster));
}

/** glTF binary: header and a JSON chunk (padded with spaces to 4 bytes) naming an empty asset. */
function glb(): Uint8Array {
  const json = JSON.stringify({ asset: { version: "2.0" } }).padEnd(28, " ");
  return cat("glTF", le32(2), le32(12 + 8 + json.length), le32(json.length), "JSON", json);
}

/** A 1×1 8-bit grey GeoTIFF (WGS 84 tie point and pixel scale), in either byte order. */
function geotiff(little: boolean): Uint8Array {
  const u16 = little ? le16 : be16;
  const u32 = little ? le32 : be32;
  const geoKeys = [1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326];
  // [tag, type (3 SHORT, 4 LONG, 5 RATIONAL, 12 DOUBLE), values]
  const tags: [number, number, number[]][] = [
    [256, 3, [1]], [257, 3, [1]], [258, 3, [8]], [259, 3, [1]], [262, 3, [1]], [273, 4, [0]],
    [277, 3, [1]], [278, 3, [1]], [279, 4, [1]], [282, 5, [72, 1]], [283, 5, [72, 1]], [296, 3, [2]],
    [33550, 12, [0.01, 0.01, 0]], [33922, 12, [0, 0, 0, 10, 50, 0]], [34735, 3, geoKeys],
  ];
  const size = { 3: 2, 4: 4, 5: 4, 12: 8 } as Record<number, number>;
  const encode = (type: number, v: number) => (type === 3 ? u16(v) : type === 12 ? f64(v, little) : u32(v));
  let extraAt = 8 + 2 + tags.length * 12 + 4;
  const entries: Part[] = [];
  const extra: Part[] = [];
  const pixelAt = extraAt + tags.reduce((n, [, t, v]) => n + (v.length * size[t] > 4 ? v.length * size[t] : 0), 0);
  for (const [tag, type, values] of tags) {
    const vals = tag === 273 ? [pixelAt] : values;
    const bytes = cat(...vals.map((v) => encode(type, v)));
    const count = type === 5 ? vals.length / 2 : vals.length;
    const inline = bytes.length <= 4;
    entries.push(u16(tag), u16(type), u32(count), inline ? cat(bytes, zeros(4 - bytes.length)) : u32(extraAt));
    if (!inline) (extra.push(bytes), (extraAt += bytes.length));
  }
  return cat(little ? "II" : "MM", u16(42), u32(8), u16(tags.length), ...entries, u32(0), ...extra, [128]);
}

/** An ESRI Shapefile with one point, as its .shp, .shx and .dbf members. */
function shapefile(x = 10, y = 50): Record<string, Uint8Array> {
  const bbox = [f64(x), f64(y), f64(x), f64(y)];
  const header = (words: number) => cat(be32(9994), zeros(20), be32(words), le32(1000), le32(1), ...bbox, zeros(32));
  const shp = cat(header(64), be32(1), be32(10), le32(1), f64(x), f64(y));
  const shx = cat(header(54), be32(50), be32(10));
  const field = cat("NAME".padEnd(11, "\0"), "C", zeros(4), [10, 0], zeros(14));
  const dbf = cat([3, 125, 1, 1], le32(1), le16(32 + 32 + 1), le16(11), zeros(20), field, [0x0d], " a         ", [0x1a]);
  return { "a.shp": shp, "a.shx": shx, "a.dbf": dbf };
}

// --- Files made by real writers, and small text files written by hand.

const pdf = () => linePdf(1, () => "vektor");

const GEOJSON = {
  type: "FeatureCollection" as const,
  features: [{ type: "Feature" as const, properties: { name: "a" }, geometry: { type: "Point" as const, coordinates: [8.5, 47.4] } }],
};

/** A GeoPackage as SQLite writes it (or plain SQLite / another SQLite application). */
function sqlite(applicationId: string, gpkgTables = true): Uint8Array {
  const db = new Database(":memory:");
  db.run(`PRAGMA application_id = ${applicationId}`);
  if (gpkgTables) {
    db.run("PRAGMA user_version = 10400");
    db.run(`CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY,
      organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT)`);
    db.run(`CREATE TABLE gpkg_contents (table_name TEXT PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
      min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER)`);
    db.run("INSERT INTO gpkg_spatial_ref_sys VALUES ('WGS 84', 4326, 'EPSG', 4326, 'GEOGCS[\"WGS 84\"]', NULL)");
  }
  const bytes = db.serialize();
  db.close();
  return bytes;
}

const KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2">
  <Placemark><name>Vektor</name><Point><coordinates>8.5,47.4,0</coordinates></Point></Placemark>
</kml>
`;

/** An R12 drawing with one line; group codes right-aligned as AutoCAD writes them. */
const DXF = [
  "999", "vektor", "  0", "SECTION", "  2", "HEADER", "  9", "$ACADVER", "  1", "AC1009", "  0", "ENDSEC",
  "  0", "SECTION", "  2", "ENTITIES", "  0", "LINE", "  8", "0", " 10", "0.0", " 20", "0.0", " 30", "0.0",
  " 11", "10.0", " 21", "10.0", " 31", "0.0", "  0", "ENDSEC", "  0", "EOF", "",
].join("\r\n");

/** Binary DXF (R12): sentinel, then one-byte group codes and NUL-terminated strings. */
const BINARY_DXF = cat("AutoCAD Binary DXF\r\n\x1a\0", [0], "SECTION\0", [2], "ENTITIES\0", [0], "ENDSEC\0", [0], "EOF\0");

const OBJ = `# unit cube
o cube
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f 3 4 8 7
f 4 1 5 8
`;

const PLY_HEADER = (format: string) =>
  `ply\nformat ${format} 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n`;
const PLY_ASCII = `${PLY_HEADER("ascii")}0 0 0\n1 0 0\n0 1 0\n`;
const PLY_BINARY = cat(PLY_HEADER("binary_little_endian"), ...[0, 0, 0, 1, 0, 0, 0, 1, 0].map((v) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, v, true);
  return b;
}));

const STL_ASCII = `solid triangle
  facet normal 0 0 1
    outer loop
      vertex 0 0 0
      vertex 1 0 0
      vertex 0 1 0
    endloop
  endfacet
endsolid triangle
`;

// Tiny images made once with ImageMagick 6.9 (`convert -size 1x1 xc:red -strip r.<ext>`).
const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const JPEG = b64(
  "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABQb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCKALXj/9k=",
);
const GIF = b64("R0lGODlhAQABAPAAAP8AAAAAACH5BAAAAAAALAAAAAABAAEAAAICRAEAOw==");
const WEBP = b64("UklGRhwAAABXRUJQVlA4TA8AAAAvAAAAAAcQ/Y/+ByKi/wEA");

/** A deterministic stand-in for uploaded garbage (xorshift32). */
function noise(length: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0, x = seed; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255;
  }
  return out;
}

// --- Real files from disk.

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => pattern.test(f)).sort();
}

interface Layer { name: string; format: "gerber" | "drill" }
const BOARDS = readdirSync(join(TRACESPACE, "boards")).map((board) => {
  const dir = join(TRACESPACE, "boards", board);
  const { layers } = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { layers: Layer[] };
  return { board, files: layers.map((l) => ({ ...l, path: join(dir, l.name) })) };
});
const boardLayers = (format: Layer["format"]) => BOARDS.flatMap((b) => b.files.filter((f) => f.format === format));

const STEP_FILES = filesUnder(OCCT, /\.(stp|step)$/i);
const LAS_FILES = ["Haystack_Rock.las", "autzen_trim.las", "point-color-time.las"];
const LAZ_FILES = ["autzen_trim.laz", "extrabytes.laz", "point-color-time.las.laz", "point-time-1.4.las.laz"];
const IFC_FILES = ["example.ifc", "duplex.ifc", "AC20-FZK-Haus.ifc"];
/** LibreDWG's test drawings, Release 2.10 to 2018 (fixtures/README.md). */
const DWG_FILES = ["r2.10-entities.dwg", "example_r14.dwg", "example_2000.dwg", "2004-Arc.dwg", "2007-Arc.dwg", "2010-Leader.dwg", "2013-Constraints.dwg", "example_2018.dwg", "sample_2018.dwg", "2018-Arc.dwg"];
const DXF_FILES = ["example_r12.dxf", "sample_r14.dxf", "2000-entities-2d.dxf", "example_2018.dxf"];
const GLTF = { asset: { version: "2.0" }, scenes: [{ nodes: [] }], scene: 0 };
/** The smallest 3MF package: content types, the root relationship and an empty model part. */
const threeMf = () =>
  zipSync({
    "[Content_Types].xml": text('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/></Types>'),
    "_rels/.rels": text('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>'),
    "3D/3dmodel.model": text('<?xml version="1.0"?><model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources/><build/></model>'),
  });

interface Case {
  format: FormatId;
  mime: string;
  name: string;
  bytes: () => Uint8Array | Promise<Uint8Array>;
}
const fromDisk = (format: FormatId, mime: string, path: string): Case => ({
  format, mime, name: path.split("/").pop()!, bytes: () => read(path),
});
const fromShared = (format: FormatId, mime: string, path: string): Case => ({
  format, mime, name: path.split("/").pop()!, bytes: () => shared(path),
});
/** tracespace's per-feature Gerber and drill specs with their expected SVG renderings. */
const specs = (pattern: RegExp) => filesUnder(join(TRACESPACE, "gerbers"), pattern).map((f) => join(TRACESPACE, "gerbers", f));

const CASES: Case[] = [
  ...STEP_FILES.map((f) => fromDisk("step", "model/step", join(OCCT, f))),
  fromDisk("iges", "model/iges", join(OCCT, "cube-10x10mm/Cube 10x10.igs")),
  fromDisk("brep", "application/x-brep", join(OCCT, "cax-if-brep/as1_pe_203.brep")),
  fromDisk("stl", "model/stl", join(OCCT, "cube-10x10mm/Cube 10x10.stl")),
  fromDisk("png", "image/png", join(OCCT, "cube-10x10mm/Cube 10x10.png")),
  ...IFC_FILES.map((f) => fromShared("ifc", "application/x-step-ifc", `bim/${f}`)),
  ...LAS_FILES.map((f) => fromShared("las", "application/vnd.las", `pointcloud/${f}`)),
  ...LAZ_FILES.map((f) => fromShared("laz", "application/vnd.laszip", `pointcloud/${f}`)),
  ...DWG_FILES.map((f) => fromShared("dwg", "image/vnd.dwg", `drawing/${f}`)),
  ...DXF_FILES.map((f) => fromShared("dxf", "image/vnd.dxf", `drawing/${f}`)),
  ...boardLayers("gerber").map((l) => fromDisk("gerber", "application/vnd.gerber", l.path)),
  ...specs(/\.gbr$/).map((path) => fromDisk("gerber", "application/vnd.gerber", path)),
  ...boardLayers("drill").map((l) => fromDisk("excellon", "application/x-excellon", l.path)),
  ...specs(/\.drl$/).map((path) => fromDisk("excellon", "application/x-excellon", path)),
  ...specs(/\.svg$/).map((path) => fromDisk("svg", "image/svg+xml", path)),
  ...BOARDS.map(({ board, files }) => ({
    format: "gerber-zip" as const, mime: "application/x-gerber+zip", name: `${board}.zip`,
    bytes: () => zipSync(Object.fromEntries(files.map((f) => [f.name, read(f.path)]))),
  })),
  { format: "pdf", mime: "application/pdf", name: "drawing.pdf", bytes: pdf },
  { format: "geojson", mime: "application/geo+json", name: "points.geojson", bytes: () => text(JSON.stringify(GEOJSON)) },
  { format: "geojson", mime: "application/geo+json", name: "bom.geojson", bytes: () => text(`\uFEFF\n  ${JSON.stringify(GEOJSON)}`) },
  { format: "shapefile-zip", mime: "application/zip", name: "points.zip", bytes: () => zipSync(shapefile()) },
  { format: "shapefile-zip", mime: "application/x-shapefile+zip", name: "points.shz", bytes: () => zipSync(shapefile()) },
  { format: "zip", mime: "application/zip", name: "notes.zip", bytes: () => zipSync({ "readme.txt": text("hello\n") }) },
  { format: "gpkg", mime: "application/geopackage+sqlite3", name: "layers.gpkg", bytes: () => sqlite("0x47504B47") },
  { format: "gpkg", mime: "application/geopackage+sqlite3", name: "plain.gpkg", bytes: () => sqlite("0", false) },
  { format: "geotiff", mime: "image/tiff", name: "dem.tif", bytes: () => geotiff(true) },
  { format: "geotiff", mime: "image/geotiff", name: "dem-be.tiff", bytes: () => geotiff(false) },
  { format: "kml", mime: "application/vnd.google-earth.kml+xml", name: "place.kml", bytes: () => text(KML) },
  { format: "dxf", mime: "image/vnd.dxf", name: "line.dxf", bytes: () => text(DXF) },
  { format: "dxf", mime: "application/dxf", name: "binary.dxf", bytes: () => BINARY_DXF },
  { format: "flatgeobuf", mime: "application/flatgeobuf", name: "points.fgb", bytes: () => toFlatGeobuf(GEOJSON) },
  { format: "glb", mime: "model/gltf-binary", name: "empty.glb", bytes: glb },
  { format: "stl", mime: "model/stl", name: "triangle.stl", bytes: () => text(STL_ASCII) },
  { format: "gltf", mime: "model/gltf+json", name: "empty.gltf", bytes: () => text(JSON.stringify(GLTF)) },
  { format: "3mf", mime: "model/3mf", name: "empty.3mf", bytes: threeMf },
  { format: "obj", mime: "model/obj", name: "cube.obj", bytes: () => text(OBJ) },
  { format: "ply", mime: "application/x-ply", name: "ascii.ply", bytes: () => text(PLY_ASCII) },
  { format: "ply", mime: "application/x-ply", name: "binary.ply", bytes: () => PLY_BINARY },
  { format: "csv", mime: "text/csv", name: "points.csv", bytes: () => text("id,x,y\n1,8.5,47.4\n2,8.6,47.5\n") },
  { format: "xyz", mime: "text/x-xyz", name: "points.xyz", bytes: () => text("8.5 47.4 410.2\n8.6 47.5 411.0\n") },
  { format: "txt", mime: "text/plain", name: "notes.txt", bytes: () => text("Grüße\nhello\n") },
  { format: "json", mime: "application/json", name: "list.json", bytes: () => text('[{"a":1}]') },
  { format: "jpeg", mime: "image/jpeg", name: "red.jpg", bytes: () => JPEG },
  { format: "gif", mime: "image/gif", name: "red.gif", bytes: () => GIF },
  { format: "webp", mime: "image/webp", name: "red.webp", bytes: () => WEBP },
  { format: "wav", mime: "audio/wav", name: "tone.wav", bytes: () => wav() },
  { format: "mp3", mime: "audio/mpeg", name: "silence.mp3", bytes: () => mp3() },
  { format: "ogg", mime: "audio/ogg", name: "silence.ogg", bytes: opus },
  { format: "opus", mime: "audio/opus", name: "silence.opus", bytes: opus },
  { format: "flac", mime: "audio/flac", name: "silence.flac", bytes: flac },
  { format: "mp4", mime: "video/mp4", name: "empty.mp4", bytes: mp4 },
  { format: "webm", mime: "audio/webm", name: "silence.webm", bytes: webm },
];

async function sampleOfCase(c: Case): Promise<Sample> {
  return sampleOf(await c.bytes());
}

describe("real files pass as their own format", () => {
  test("every format has at least one real file", () => {
    const covered = new Set(CASES.map((c) => c.format));
    expect(FORMATS.map((f) => f.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  test.each(CASES.map((c) => [`${c.format} ${c.name}`, c] as const))("%s", async (_, c) => {
    const sample = await sampleOfCase(c);
    expect(await matchesFormat(c.format, sample)).toBe(true);
    expect(await checkSignature(c.mime, c.name, sample)).toMatchObject({ ok: true, format: c.format });
  });
});

const refused = (expected: string[]) => ({ ok: false, format: null, expected });

describe("mismatches are refused", () => {
  test("a PDF declared as PNG, and a PNG declared as PDF", async () => {
    const png = sampleOf(occt("cube-10x10mm/Cube 10x10.png"));
    expect(await checkSignature("image/png", "drawing.png", sampleOf(await pdf()))).toEqual(refused(["png"]));
    expect(await checkSignature("application/pdf", "cube.pdf", png)).toEqual(refused(["pdf"]));
  });

  test("LAS and LAZ are told apart", async () => {
    const cloud = (f: string) => sampleOf(shared(`pointcloud/${f}`));
    for (const f of LAS_FILES) {
      expect(await checkSignature("application/vnd.laszip", "cloud.laz", cloud(f))).toEqual(refused(["laz"]));
    }
    for (const f of LAZ_FILES) {
      expect(await checkSignature("application/vnd.las", "cloud.las", cloud(f))).toEqual(refused(["las"]));
    }
  });

  test("a STEP part declared as IFC, and an IFC model declared as STEP", async () => {
    for (const f of STEP_FILES) {
      expect(await checkSignature("application/x-step-ifc", "part.ifc", sampleOf(occt(f)))).toEqual(refused(["ifc"]));
    }
    for (const f of IFC_FILES) {
      expect(await checkSignature("model/step", "house.stp", sampleOf(shared(`bim/${f}`)))).toEqual(refused(["step"]));
    }
  });

  test("Gerber layers and Excellon drills are told apart", async () => {
    for (const l of boardLayers("drill")) expect(await matchesFormat("gerber", sampleOf(read(l.path)))).toBe(false);
    for (const l of boardLayers("gerber")) expect(await matchesFormat("excellon", sampleOf(read(l.path)))).toBe(false);
  });

  test("related formats that differ in content", async () => {
    const stl = sampleOf(occt("cube-10x10mm/Cube 10x10.stl"));
    expect(await checkSignature("model/obj", "cube.obj", stl)).toEqual(refused(["obj"]));
    expect(await checkSignature("application/json", "points.json", sampleOf(text("id,x\n1,2\n")))).toEqual(refused(["json"]));
    const geojson = sampleOf(text(JSON.stringify(GEOJSON)));
    expect(await checkSignature("application/vnd.google-earth.kml+xml", "a.kml", geojson)).toEqual(refused(["kml"]));
    const notes = sampleOf(zipSync({ "readme.txt": text("hello\n") }));
    expect(await checkSignature("application/x-shapefile+zip", "notes.zip", notes)).toEqual(refused(["shapefile-zip"]));
    expect(await checkSignature("application/x-gerber+zip", "notes.zip", notes)).toEqual(refused(["gerber-zip"]));
    expect(await checkSignature("audio/opus", "tone.opus", sampleOf(wav()))).toEqual(refused(["opus"]));
  });

  test("DWG and DXF are told by content, not by name", async () => {
    const dwg = sampleOf(shared("drawing/example_2018.dwg"));
    const dxf = sampleOf(shared("drawing/example_2018.dxf"));
    expect(await checkSignature("application/octet-stream", "plan.dwg", dxf)).toEqual(refused(["dwg"]));
    expect(await checkSignature("application/octet-stream", "plan.dxf", dwg)).toEqual(refused(["dxf"]));
    expect(await checkSignature("image/vnd.dwg", "report.dwg", sampleOf(await pdf()))).toEqual(refused(["dwg"]));
    expect(await checkSignature("model/3mf", "notes.3mf", sampleOf(zipSync({ "readme.txt": text("hello\n") })))).toEqual(refused(["3mf"]));
    expect(await checkSignature("model/gltf+json", "list.gltf", sampleOf(text('[{"a":1}]')))).toEqual(refused(["gltf"]));
  });

  test("an SQLite file of another application is no GeoPackage", async () => {
    const mbtiles = sampleOf(sqlite("0x4D504258", false)); // "MPBX"
    expect(await checkSignature("application/geopackage+sqlite3", "tiles.gpkg", mbtiles)).toEqual(refused(["gpkg"]));
  });

  test("random bytes pass as no known format", async () => {
    const sample = sampleOf(noise(200_000));
    expect(await checkSignature("application/pdf", "report.pdf", sample)).toEqual(refused(["pdf"]));
    for (const { id } of FORMATS) expect([id, await matchesFormat(id, sample)]).toEqual([id, false]);
  });

  test("an empty object is no known format", async () => {
    const empty = sampleOf(new Uint8Array(0));
    for (const f of FORMATS) {
      expect([f.id, await matchesFormat(f.id, empty)]).toEqual([f.id, false]);
      expect((await checkSignature(f.mimes[0], `empty.${f.extensions[0]}`, empty)).ok).toBe(false);
    }
  });
});

describe("partial samples", () => {
  test("a LAS header cut short matches neither LAS nor LAZ", async () => {
    const las = shared("pointcloud/autzen_trim.las");
    const cut = { head: las.subarray(0, 100), tail: las.subarray(0, 100), size: las.length };
    expect(await matchesFormat("las", cut)).toBe(false);
    expect(await matchesFormat("laz", cut)).toBe(false);
  });

  test("a PDF needs only its first kilobyte; a binary STL only its 84-byte header and true size", async () => {
    const doc = await pdf();
    expect(await matchesFormat("pdf", { head: doc.subarray(0, 1024), tail: doc.subarray(-16), size: doc.length })).toBe(true);
    const stl = occt("cube-10x10mm/Cube 10x10.stl");
    const head = stl.subarray(0, 84);
    expect(await matchesFormat("stl", { head, tail: head, size: stl.length })).toBe(true);
    expect(await matchesFormat("stl", { head, tail: head, size: stl.length - 1 })).toBe(false);
  });

  test("a binary STL whose free-text header starts with 'solid' is still binary", async () => {
    const stl = occt("cube-10x10mm/Cube 10x10.stl").slice();
    stl.set(text("solid cube"), 0);
    expect(await matchesFormat("stl", sampleOf(stl))).toBe(true);
    expect(await matchesFormat("obj", sampleOf(stl))).toBe(false);
  });

  test("a .shp listed only in the central directory at the tail is found there", async () => {
    const { "a.shp": shp, "a.shx": shx } = shapefile();
    // Incompressible members around the .shp keep its local header out of both samples.
    const bytes = zipSync({ "a.dbf": noise(100_000, 1), "a.shp": shp, "pad.bin": noise(100_000, 2), "a.shx": shx }, { level: 0 });
    const sample = sampleOf(bytes);
    expect(new TextDecoder("latin1").decode(sample.head).includes("a.shp")).toBe(false);
    expect(await checkSignature("application/zip", "points.zip", sample)).toMatchObject({ ok: true, format: "shapefile-zip" });
    const headOnly = { head: sample.head, tail: sample.head, size: bytes.length };
    expect(await checkSignature("application/zip", "points.zip", headOnly)).toMatchObject({ ok: true, format: "zip" });
  });

  test("an ISO 10303-21 header cut before FILE_SCHEMA counts as STEP, not IFC", async () => {
    const ifc = shared("bim/duplex.ifc").subarray(0, 30);
    const cut = { head: ifc, tail: ifc, size: 2_380_763 };
    expect(await matchesFormat("step", cut)).toBe(true);
    expect(await matchesFormat("ifc", cut)).toBe(false);
  });

  test("text whose end is binary is not text", async () => {
    const bytes = cat("id,x,y\n", noise(SAMPLE_BYTES * 3).map((b) => b || 1), [0, 0, 0]);
    expect(await matchesFormat("csv", sampleOf(bytes))).toBe(false);
  });
});

describe("declared types", () => {
  test("a type naming no known format passes as a generic file", async () => {
    const generic = { ok: true, format: null, expected: [] };
    expect(await checkSignature("application/octet-stream", "blob.bin", sampleOf(noise(4096)))).toEqual(generic);
    expect(await checkSignature("application/octet-stream", "empty.bin", sampleOf(new Uint8Array(0)))).toEqual(generic);
  });

  test("a generic MIME type falls back to the extension, and MIME parameters are ignored", async () => {
    const cube = sampleOf(occt("simple-basic-cube/cube.stp"));
    expect(await checkSignature("application/octet-stream", "cube.STP", cube)).toMatchObject({ ok: true, format: "step" });
    expect(await checkSignature("Model/STEP; charset=binary", "cube", cube)).toMatchObject({ ok: true, format: "step" });
  });

  test("a drill file named .txt is Excellon or plain text, whichever the declaration allows", async () => {
    const drill = sampleOf(read(join(TRACESPACE, "boards/8bit-mixtape/mixtape.txt")));
    expect(await checkSignature("application/octet-stream", "mixtape.txt", drill)).toEqual({
      ok: true, format: "excellon", expected: ["excellon", "txt"],
    });
    expect(await checkSignature("text/plain", "mixtape.txt", drill)).toMatchObject({ ok: true, format: "txt" });
  });

  test("every gerber file name a CAD tool writes is recognised inside a ZIP", async () => {
    type Naming = { cad: string; files: { name: string; type: string | null }[] };
    const namings = JSON.parse(readFileSync(join(TRACESPACE, "gerber-filenames.json"), "utf8")) as Naming[];
    const layer = read(join(TRACESPACE, "boards/mchck/mchck-F_Cu.pho"));
    for (const { cad, files } of namings) {
      const layers = files.filter((f) => f.type && f.type !== "drawing" && !/\.txt$/i.test(f.name));
      for (const f of layers) {
        const sample = sampleOf(zipSync({ [f.name]: layer }));
        expect([cad, f.name, await matchesFormat("gerber-zip", sample)]).toEqual([cad, f.name, true]);
      }
    }
  });
});
