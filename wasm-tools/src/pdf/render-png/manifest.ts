/** pdf.render-png: pages as PNG images. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { pageRangesParam } from "../common/pages";

export const params = Type.Object(
  {
    dpi: Type.Integer({ minimum: 36, maximum: 300, default: 96, description: "Resolution in dots per inch (72 = one pixel per point)" }),
    pages: pageRangesParam('Pages to render, e.g. "1-3,5". Omitted: every page.'),
    alpha: Type.Boolean({ default: false, description: "Transparent background instead of white" }),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pdf.render-png",
  family: "pdf",
  title: "PDF to PNG",
  description: "Renders PDF pages to PNG images, one image per page, at the chosen resolution.",
  io: { accepts: ["pdf"], produces: ["png"], hostFiles: true },
  params,
  deterministic: true,
  // Memory per input byte, in the browser (bytes): mupdf holds the document; the pages' PNGs are
  // kept until returned: the worker's peak grew 3.8x the input's growth at 72 dpi on 4 and 16 MB
  // PDFs of scanned pages (more at a higher dpi) (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 300_000, memoryPerInputByte: 3.8 },
} satisfies ToolManifest;
