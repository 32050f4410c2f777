/** pdf.rotate: turn pages by a quarter, half or three-quarter turn. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { pageRangesParam } from "../common/pages";

export const params = Type.Object(
  {
    degrees: Type.Union([Type.Literal(90), Type.Literal(180), Type.Literal(270)], {
      default: 90,
      description: "Clockwise rotation added to each selected page's current rotation",
    }),
    pages: pageRangesParam('Pages to rotate, e.g. "1-3,5". Omitted: every page.'),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pdf.rotate",
  family: "pdf",
  title: "Rotate PDF pages",
  description: "Rotates all or selected pages clockwise by 90, 180 or 270 degrees.",
  io: { accepts: ["pdf"], produces: ["pdf"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // mupdf reads the input through a stream but builds the new file in a buffer in its heap, which
  // ends at 2 GiB: a 560 MB PDF of scanned pages could not be rotated, 504 MB could (from host files,
  // the worker peaked 2.5x the input; 7.1x before the stream, 48 MB). Memory per input byte on this
  // device (bytes): Chromium's renderer peak grew 3.1x the input's growth rotating every page by 90
  // between 32 and 128 MB PDFs of scanned pages, read from the picked File (2026-11-26, bun
  // bench/web-pdf-memory.ts; 4.1x was measured on whole bytes in a server worker,
  // bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 60_000, memoryPerInputByte: 3.1 },
} satisfies ToolManifest;
