/**
 * The data formats the service knows: what tools accept and produce (`io.accepts` /
 * `io.produces`), how an upload's declared type is resolved, and which signature check
 * `confirm` applies. Data, not code: adding a format is adding a row.
 */
export interface FormatInfo {
  id: string;
  title: string;
  /** Primary MIME type first. */
  mimes: string[];
  /** Lower-case extensions without the dot; primary first. */
  extensions: string[];
}

export const FORMATS = [
  { id: "pdf", title: "PDF", mimes: ["application/pdf"], extensions: ["pdf"] },
  { id: "step", title: "STEP", mimes: ["model/step", "application/step", "application/x-step"], extensions: ["step", "stp"] },
  { id: "iges", title: "IGES", mimes: ["model/iges", "application/iges", "application/x-iges"], extensions: ["iges", "igs"] },
  { id: "brep", title: "OpenCascade BREP", mimes: ["application/x-brep"], extensions: ["brep", "brp"] },
  { id: "glb", title: "glTF binary", mimes: ["model/gltf-binary"], extensions: ["glb"] },
  { id: "stl", title: "STL", mimes: ["model/stl", "application/sla"], extensions: ["stl"] },
  { id: "obj", title: "Wavefront OBJ", mimes: ["model/obj"], extensions: ["obj"] },
  { id: "gltf", title: "glTF (JSON)", mimes: ["model/gltf+json"], extensions: ["gltf"] },
  { id: "3mf", title: "3D Manufacturing Format", mimes: ["model/3mf", "application/vnd.ms-package.3dmanufacturing-3dmodel+xml"], extensions: ["3mf"] },
  { id: "ifc", title: "IFC", mimes: ["application/x-step-ifc", "model/ifc", "application/ifc"], extensions: ["ifc"] },
  { id: "las", title: "LAS point cloud", mimes: ["application/vnd.las"], extensions: ["las"] },
  { id: "laz", title: "LAZ point cloud", mimes: ["application/vnd.laszip"], extensions: ["laz"] },
  { id: "ply", title: "PLY", mimes: ["application/x-ply"], extensions: ["ply"] },
  { id: "xyz", title: "XYZ points", mimes: ["text/x-xyz"], extensions: ["xyz"] },
  { id: "geojson", title: "GeoJSON", mimes: ["application/geo+json"], extensions: ["geojson"] },
  { id: "shapefile-zip", title: "Shapefile (ZIP)", mimes: ["application/x-shapefile+zip", "application/zip"], extensions: ["zip", "shz"] },
  { id: "gpkg", title: "GeoPackage", mimes: ["application/geopackage+sqlite3"], extensions: ["gpkg"] },
  { id: "geotiff", title: "GeoTIFF", mimes: ["image/tiff", "image/geotiff"], extensions: ["tif", "tiff"] },
  { id: "kml", title: "KML", mimes: ["application/vnd.google-earth.kml+xml"], extensions: ["kml"] },
  { id: "csv", title: "CSV", mimes: ["text/csv"], extensions: ["csv"] },
  { id: "flatgeobuf", title: "FlatGeobuf", mimes: ["application/flatgeobuf"], extensions: ["fgb"] },
  { id: "dwg", title: "DWG drawing", mimes: ["image/vnd.dwg", "application/acad", "application/x-dwg"], extensions: ["dwg"] },
  { id: "dxf", title: "DXF", mimes: ["image/vnd.dxf", "application/dxf"], extensions: ["dxf"] },
  { id: "gerber", title: "Gerber", mimes: ["application/vnd.gerber"], extensions: ["gbr", "ger", "gtl", "gbl", "gto", "gbo", "gts", "gbs", "gtp", "gbp", "gko", "gm1"] },
  { id: "excellon", title: "Excellon drill", mimes: ["application/x-excellon"], extensions: ["drl", "xln", "exc", "txt"] },
  { id: "gerber-zip", title: "Gerber set (ZIP)", mimes: ["application/x-gerber+zip"], extensions: ["zip"] },
  { id: "svg", title: "SVG", mimes: ["image/svg+xml"], extensions: ["svg"] },
  { id: "png", title: "PNG", mimes: ["image/png"], extensions: ["png"] },
  { id: "jpeg", title: "JPEG", mimes: ["image/jpeg"], extensions: ["jpg", "jpeg"] },
  { id: "webp", title: "WebP", mimes: ["image/webp"], extensions: ["webp"] },
  { id: "gif", title: "GIF", mimes: ["image/gif"], extensions: ["gif"] },
  { id: "mp3", title: "MP3", mimes: ["audio/mpeg"], extensions: ["mp3"] },
  { id: "wav", title: "WAV", mimes: ["audio/wav", "audio/x-wav", "audio/wave"], extensions: ["wav"] },
  { id: "ogg", title: "Ogg", mimes: ["audio/ogg", "video/ogg"], extensions: ["ogg", "oga"] },
  { id: "opus", title: "Opus", mimes: ["audio/opus"], extensions: ["opus"] },
  { id: "flac", title: "FLAC", mimes: ["audio/flac"], extensions: ["flac"] },
  { id: "mp4", title: "MP4", mimes: ["video/mp4", "audio/mp4"], extensions: ["mp4", "m4a", "m4v", "mov"] },
  { id: "webm", title: "WebM", mimes: ["video/webm", "audio/webm"], extensions: ["webm", "mkv"] },
  { id: "json", title: "JSON", mimes: ["application/json"], extensions: ["json"] },
  { id: "txt", title: "Text", mimes: ["text/plain"], extensions: ["txt"] },
  { id: "zip", title: "ZIP archive", mimes: ["application/zip"], extensions: ["zip"] },
] as const satisfies readonly FormatInfo[];

export type FormatId = (typeof FORMATS)[number]["id"];

const byId = new Map<string, FormatInfo>(FORMATS.map((f) => [f.id, f]));

/** The formats with each MIME type and each extension, in FORMATS order: every upload and every tool output looks its own up. */
const withMime = indexBy((f) => f.mimes);
const withExtension = indexBy((f) => f.extensions);

function indexBy(keys: (f: FormatInfo) => readonly string[]): Map<string, readonly FormatInfo[]> {
  const index = new Map<string, readonly FormatInfo[]>();
  for (const f of FORMATS) for (const key of new Set(keys(f))) index.set(key, [...(index.get(key) ?? []), f]);
  return index;
}

export function formatInfo(id: string): FormatInfo | undefined {
  return byId.get(id);
}

/** Primary MIME type of a format (for outputs). */
export function mimeOf(id: FormatId): string {
  return byId.get(id)!.mimes[0];
}

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot < 0 ? "" : filename.slice(dot + 1).toLowerCase();
}

/**
 * Every format an upload could be, from its declared MIME type and its file name. A MIME type
 * alone can be generic (application/zip, text/plain), so the extension narrows it; the
 * signature check then accepts the upload when any candidate matches.
 */
export function candidateFormats(mime: string, filename: string): readonly FormatInfo[] {
  const byMime = withMime.get(mime.toLowerCase().split(";")[0].trim()) ?? [];
  const byExt = withExtension.get(extensionOf(filename)) ?? [];
  if (byMime.length && byExt.length) {
    const both = byMime.filter((f) => byExt.includes(f));
    return both.length ? both : byMime;
  }
  return byMime.length ? byMime : byExt;
}
