/** The drawing family's tools (DWG through LibreDWG's WASM, DXF through dxf-parser; own SVG, GeoJSON and PDF writers). */
import type { ToolEntry } from "../registry";
import { manifest as info } from "./info/manifest";
import { manifest as toDxf } from "./to-dxf/manifest";
import { manifest as toGeojson } from "./to-geojson/manifest";
import { manifest as toPdf } from "./to-pdf/manifest";
import { manifest as toSvg } from "./to-svg/manifest";

/** One entry per tool folder. */
export const drawingTools: ToolEntry[] = [
  { manifest: info, load: () => import("./info/run") },
  { manifest: toSvg, load: () => import("./to-svg/run") },
  { manifest: toGeojson, load: () => import("./to-geojson/run") },
  { manifest: toPdf, load: () => import("./to-pdf/run") },
  { manifest: toDxf, load: () => import("./to-dxf/run") },
];
