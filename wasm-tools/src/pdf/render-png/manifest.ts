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
  io: { accepts: ["pdf"], produces: ["png"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // mupdf reads the input through a stream, a page at a time, and on the server each PNG goes to the
  // output folder as it is made: rendering a 1 GB PDF of scanned pages at 36 dpi added 122 MB to the
  // worker. Memory per input byte on this device (bytes; the PNGs are kept until returned, so it
  // follows the pages' area and the dpi more than the bytes): Chromium's renderer peak grew 1.0x the
  // input's growth at 96 dpi (the default; 1.9x at 300 dpi) between 32 and 128 MB PDFs of scanned
  // pages (8 MB each), read from the picked File (2026-11-26, bun bench/web-pdf-memory.ts; 3.5x at
  // 72 dpi was measured on whole bytes in a server worker, bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024 - 1, timeoutMs: 300_000, memoryPerInputByte: 1.0 },
} satisfies ToolManifest;
