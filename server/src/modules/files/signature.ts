/**
 * The magic-signature check behind `confirm`: an upload's declared type (MIME type + file name)
 * must agree with its first and last bytes, so that a tool is never handed a file it cannot
 * read and a renamed executable cannot pose as a drawing. Engineering formats are checked by
 * hand (no library knows them); binary media go through `file-type`, which knows them better.
 */
import { fileTypeFromBuffer } from "file-type";
import { candidateFormats, type FormatId } from "@vektor/shared/formats";

/** Bytes from the start and the end of the object (each up to 64 KiB; for small files they overlap/are equal). */
export interface Sample {
  head: Uint8Array;
  tail: Uint8Array;
  size: number;
}

/** How many bytes the caller reads from each end of the object. */
export const SAMPLE_BYTES = 65536;

type Check = (s: Sample) => boolean | Promise<boolean>;

const latin1 = new TextDecoder("latin1");
// Non-fatal UTF-8 decoding strips a leading BOM and never throws on a cut-off character.
const utf8 = new TextDecoder("utf-8");

function ascii(bytes: Uint8Array, end = bytes.length): string {
  return latin1.decode(bytes.subarray(0, end));
}

function startsWith(bytes: Uint8Array, magic: string, offset = 0): boolean {
  if (bytes.length < offset + magic.length) return false;
  for (let i = 0; i < magic.length; i++) {
    if (bytes[offset + i] !== magic.charCodeAt(i)) return false;
  }
  return true;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Text formats carry no NUL byte; UTF-16 text is refused too, since no tool reads it. */
function isText(s: Sample): boolean {
  return !s.head.includes(0) && !s.tail.includes(0);
}

/** The head as text without BOM and leading whitespace, or null when it is binary. */
function leadingText(s: Sample): string | null {
  return isText(s) ? utf8.decode(s.head).trimStart() : null;
}

function textMatches(pattern: RegExp): Check {
  return (s) => pattern.test(leadingText(s) ?? "");
}

// --- STEP and IFC share the ISO 10303-21 envelope; the schema name tells them apart.

const FILE_SCHEMA = /FILE_SCHEMA\s*\(\s*\(\s*(?:\/\*[\s\S]*?\*\/\s*)*'([^']*)'/i;

function step21Schema(s: Sample): string | null {
  const text = leadingText(s);
  if (!text?.startsWith("ISO-10303-21;")) return null;
  // A header too long for the sample still is STEP; only a named IFC schema makes it IFC.
  return FILE_SCHEMA.exec(text)?.[1].trim() ?? "";
}

const isStep: Check = (s) => {
  const schema = step21Schema(s);
  return schema !== null && !/^IFC/i.test(schema);
};

const isIfc: Check = (s) => /^IFC/i.test(step21Schema(s) ?? "");

// --- IGES: fixed 80-column records, section letter in column 73, sequence number after it.

function igesRecords(head: Uint8Array): string[] {
  const text = ascii(head, 400);
  const lines = text.split(/\r?\n/);
  // Some writers emit bare 80-byte records without line breaks.
  return lines[0].length > 81 ? (text.match(/[^]{80}/g) ?? []) : lines.slice(0, -1);
}

const isIges: Check = (s) => {
  const records = igesRecords(s.head).slice(0, 2);
  return records.length === 2 && records.every((r) => /^.{72}[SG][ \d]{0,7}\d *$/.test(r));
};

// --- LAS / LAZ: LASzip sets bit 7 (and 6) of the point data format id and adds its VLR.

function lasHeader(s: Sample) {
  if (s.head.length < 105 || !startsWith(s.head, "LASF")) return null;
  const [major, minor, format] = [s.head[24], s.head[25], s.head[104]];
  return { major, minor, format, laszipVlr: ascii(s.head).includes("laszip encoded") };
}

const isLas: Check = (s) => {
  const h = lasHeader(s);
  return !!h && h.major === 1 && h.minor <= 4 && h.format <= 10 && !h.laszipVlr;
};

const isLaz: Check = (s) => {
  const h = lasHeader(s);
  return !!h && h.major === 1 && ((h.format & 0xc0) !== 0 || h.laszipVlr);
};

// --- ZIP: entry names come from local headers in the head and the central directory in the tail.

const ZIP_NAME_AT: Record<number, [lengthAt: number, nameAt: number]> = {
  0x0304: [26, 30], // local file header
  0x0102: [28, 46], // central directory header
};

function zipEntryNames(s: Sample): string[] {
  const names: string[] = [];
  for (const part of [s.head, s.tail]) {
    const dv = view(part);
    for (let i = 0; i + 46 <= part.length; i++) {
      if (part[i] !== 0x50 || part[i + 1] !== 0x4b) continue;
      const at = ZIP_NAME_AT[(part[i + 2] << 8) | part[i + 3]];
      if (!at) continue;
      const start = i + at[1];
      names.push(ascii(part.subarray(start, start + dv.getUint16(i + at[0], true))));
    }
  }
  return names;
}

/** A ZIP starts with a local header, or is the 22-byte end record of an empty archive. */
function isZip(s: Sample): boolean {
  return startsWith(s.head, "PK\x03\x04") || startsWith(s.head, "PK\x05\x06");
}

function zipWithEntry(pattern: RegExp): Check {
  return (s) => isZip(s) && zipEntryNames(s).some((n) => pattern.test(n));
}

/**
 * Layer and drill extensions that EDA tools put in a fabrication ZIP (KiCad, Eagle, Altium,
 * OrCAD, gEDA naming). Bare .txt is left out: too many ZIPs hold a readme.
 */
const GERBER_ENTRY = new RegExp(
  "\\.(gbr|ger|gbx|pho|art|g[tbp][losp]|g[tb]a|gko|gm\\d*|gml|g\\d+|gp\\d+|cmp|sol|st[cs]|pl[cs]" +
    "|top|bot|[tb]s[mkp]|cr[cs]|ly\\d+|in\\d+|dim|mil|sm[tb]|ss[tb]|sp[tb]|fab|drl|drd|xln|exc|tap|npt|cnc)$",
  "i",
);

// --- Raster and vector containers with a fixed header.

// GPKG (1.2+), GP10, GP11; 0 because some writers never set application_id on a plain SQLite file.
const GPKG_APPLICATION_IDS = [0x47504b47, 0x47503130, 0x47503131, 0];

const isGpkg: Check = (s) =>
  startsWith(s.head, "SQLite format 3\0") &&
  s.head.length >= 72 &&
  GPKG_APPLICATION_IDS.includes(view(s.head).getUint32(68, false));

/** Any TIFF: GeoTIFF differs only by tags deep in the IFD, and the geotiff row takes image/tiff. */
const isTiff: Check = (s) => {
  if (s.head.length < 8) return false;
  const little = startsWith(s.head, "II");
  if (!little && !startsWith(s.head, "MM")) return false;
  const dv = view(s.head);
  const version = dv.getUint16(2, little);
  if (version === 43) return dv.getUint16(4, little) === 8; // BigTIFF: 8-byte offsets
  const ifd = dv.getUint32(4, little);
  return version === 42 && ifd >= 8 && ifd < s.size;
};

const isDxf: Check = (s) => {
  if (startsWith(s.head, "AutoCAD Binary DXF")) return true;
  const lines = (leadingText(s) ?? "").split(/\r?\n/, 64).map((l) => l.trim()).filter(Boolean);
  let i = 0;
  while (lines[i] === "999") i += 2; // leading comment groups
  return lines[i] === "0" && lines[i + 1] === "SECTION";
};

/**
 * DWG opens with its version string: AC1001..AC1032 for Release 2.5 to 2018 and later, AC2.10,
 * AC1.50, AC1.40, AC1.2 and MC0.0 before that. Nothing else in the header is fixed.
 */
const isDwg: Check = (s) => /^(AC1\d{3}|AC[12]\.\d{1,2}|MC0\.0)/.test(ascii(s.head, 6));

const isExcellon: Check = (s) => {
  const lines = (leadingText(s) ?? "").split(/\r?\n/, 64).map((l) => l.trim());
  const first = lines.find((l) => l !== "" && l !== "%" && !l.startsWith(";"));
  return /^(M48|T\d+C|METRIC|INCH)/.test(first ?? "");
};

const isGlb: Check = (s) =>
  startsWith(s.head, "glTF") && s.head.length >= 12 && [1, 2].includes(view(s.head).getUint32(4, true));

/** Binary STL is told by its size (80-byte header, count, 50 bytes a triangle), since its header is free text. */
const isStl: Check = (s) => {
  if (s.head.length >= 84 && 84 + 50 * view(s.head).getUint32(80, true) === s.size) return true;
  const text = leadingText(s);
  return !!text?.startsWith("solid") && (text.includes("facet") || ascii(s.tail).includes("endsolid"));
};

const isPly: Check = (s) =>
  /^ply\r?\n/.test(ascii(s.head, 5)) &&
  /\nformat (ascii|binary_little_endian|binary_big_endian) /.test(ascii(s.head, 1024));

// --- Media: file-type knows these containers; map its extension to our format ids.

function media(...exts: string[]): Check {
  return async (s) => {
    const found = await fileTypeFromBuffer(s.head);
    return !!found && exts.includes(found.ext);
  };
}

/**
 * One check per format: a registry, so a new row in formats.ts fails to compile until it has one.
 * Formats with no signature (csv, xyz, txt) can only be told to be text.
 */
const CHECKS: Record<FormatId, Check> = {
  pdf: (s) => ascii(s.head, 1024).includes("%PDF-"),
  step: isStep,
  iges: isIges,
  brep: (s) => /DBRep_DrawableShape|CASCADE Topology/.test(ascii(s.head, 1024)),
  glb: isGlb,
  stl: isStl,
  obj: (s) => /^[vf][ \t]/m.test(leadingText(s) ?? ""),
  gltf: textMatches(/^\{[^]*"asset"\s*:/), // glTF 2.0 requires the asset object
  "3mf": zipWithEntry(/^3D\/[^/]+\.model$/i), // OPC package whose model part sits under 3D/
  ifc: isIfc,
  las: isLas,
  laz: isLaz,
  ply: isPly,
  xyz: isText, // free-form columns: only "is text" can be checked
  geojson: (s) => /^\{[^]*"type"/.test(leadingText(s) ?? ""),
  "shapefile-zip": zipWithEntry(/\.shp$/i),
  gpkg: isGpkg,
  geotiff: isTiff,
  kml: textMatches(/^(<[^]*)?<kml[\s>]/),
  csv: isText,
  flatgeobuf: (s) => startsWith(s.head, "fgb\x03fgb"), // major version 3; the patch byte may vary
  dwg: isDwg,
  dxf: isDxf,
  gerber: textMatches(/%FS|%MO|G04|%ADD/),
  excellon: isExcellon,
  "gerber-zip": zipWithEntry(GERBER_ENTRY),
  svg: textMatches(/^(<[^]*)?<svg[\s>]/),
  png: media("png", "apng"),
  jpeg: media("jpg"),
  webp: media("webp"),
  gif: media("gif"),
  mp3: media("mp3"),
  wav: media("wav"),
  ogg: media("ogg", "oga", "opus", "spx", "ogv", "ogm", "ogx"), // any Ogg stream, Opus included
  opus: media("opus"),
  flac: media("flac"),
  mp4: media("mp4", "m4a", "m4v", "m4p", "m4b", "mov", "f4v", "f4a", "f4b", "3gp", "3g2"),
  webm: media("webm", "mkv"),
  json: textMatches(/^[{[]/),
  txt: isText,
  zip: isZip,
};

/** True when the sample looks like format `id`. An empty object is no known format. */
export function matchesFormat(id: FormatId, sample: Sample): Promise<boolean> | boolean {
  if (sample.size === 0 || sample.head.length === 0) return false;
  return CHECKS[id](sample);
}

/**
 * The confirm rule: the declared type resolves to candidate formats and the upload passes when
 * any of them matches. The first match is reported; formats.ts lists specific rows before generic
 * ones (shapefile-zip before zip, excellon before txt). A type that names no
 * known format is a generic file and passes. `expected` lists the candidate ids for the error.
 */
export async function checkSignature(
  mime: string,
  filename: string,
  sample: Sample,
): Promise<{ ok: boolean; format: FormatId | null; expected: string[] }> {
  const expected = candidateFormats(mime, filename).map((f) => f.id as FormatId);
  if (expected.length === 0) return { ok: true, format: null, expected };
  for (const id of expected) {
    if (await matchesFormat(id, sample)) return { ok: true, format: id, expected };
  }
  return { ok: false, format: null, expected };
}
