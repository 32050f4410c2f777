/** pdf.split: one PDF per page range. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { pageRangesParam } from "../common/pages";

export const params = Type.Object(
  { ranges: pageRangesParam('Comma-separated ranges, one output PDF each, e.g. "1-3,5,8-". Omitted: one PDF per page.') },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pdf.split",
  family: "pdf",
  title: "Split PDF",
  description: "Splits a PDF into several: one file per page range, or one per page.",
  io: { accepts: ["pdf"], produces: ["pdf"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // mupdf reads the input through a stream and builds each part in its heap (2 GiB at most), written
  // out before the next. Memory per input byte on this device (bytes; the parts are kept until
  // returned): Chromium's renderer peak grew 1.4x the input's growth splitting into one part a page
  // between 32 and 128 MB PDFs of scanned pages, read from the picked File (2026-11-26, bun
  // bench/web-pdf-memory.ts; 2.2x was measured on whole bytes in a server worker,
  // bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 120_000, memoryPerInputByte: 1.4 },
} satisfies ToolManifest;
