/** Which viewer shows a file, from its extension or its declared type. */
import { canPreviewText } from "../TextPreview";

export type PreviewKind = "model" | "points" | "map" | "pdf" | "svg" | "drawing" | "text";

const BY_EXTENSION: Record<string, PreviewKind> = { glb: "model", las: "points", laz: "points", geojson: "map", gpkg: "map", kml: "map", pdf: "pdf", svg: "svg", dwg: "drawing", dxf: "drawing" };

const BY_MIME: Record<string, PreviewKind> = {
  "model/gltf-binary": "model",
  "application/vnd.las": "points",
  "application/vnd.laszip": "points",
  "application/geo+json": "map",
  "application/geopackage+sqlite3": "map",
  "application/vnd.google-earth.kml+xml": "map",
  "application/pdf": "pdf",
  "image/svg+xml": "svg",
  "image/vnd.dwg": "drawing",
  "image/vnd.dxf": "drawing",
};

/** Largest file a viewer reads into the page (the bytes are held in memory while it is open). */
export const MAX_VIEW_BYTES = 256 * 1024 * 1024;

export const extensionOf = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";

/** The viewer for a file, or null when none fits (or it is too big to show). */
export function previewKind(name: string, mime: string, size: number): PreviewKind | null {
  const kind = BY_EXTENSION[extensionOf(name)] ?? BY_MIME[mime.split(";")[0]!.trim()];
  if (kind) return size <= MAX_VIEW_BYTES ? kind : null;
  return canPreviewText(mime, size) ? "text" : null;
}
