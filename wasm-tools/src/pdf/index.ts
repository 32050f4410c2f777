/** The PDF family's tools (pdf-lib for page surgery and metadata, mupdf for rewriting, rendering, text). */
import type { ToolEntry } from "../registry";
import { manifest as compress } from "./compress/manifest";
import { manifest as extractText } from "./extract-text/manifest";
import { manifest as merge } from "./merge/manifest";
import { manifest as metadata } from "./metadata/manifest";
import { manifest as renderPng } from "./render-png/manifest";
import { manifest as rotate } from "./rotate/manifest";
import { manifest as split } from "./split/manifest";

/** One entry per tool folder. */
export const pdfTools: ToolEntry[] = [
  { manifest: compress, load: () => import("./compress/run") },
  { manifest: merge, load: () => import("./merge/run") },
  { manifest: split, load: () => import("./split/run") },
  { manifest: rotate, load: () => import("./rotate/run") },
  { manifest: metadata, load: () => import("./metadata/run") },
  { manifest: renderPng, load: () => import("./render-png/run") },
  { manifest: extractText, load: () => import("./extract-text/run") },
];
