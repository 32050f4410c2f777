/** pdf.extract-text: the text layer as plain text and/or JSON per page. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";
import { pageRangesParam } from "../common/pages";

export const params = Type.Object(
  {
    format: Type.Union([Type.Literal("txt"), Type.Literal("json"), Type.Literal("both")], {
      default: "txt",
      description: "txt: one text file, pages separated by a form feed; json: { pages: [{ number, text }] }; both: the two files",
    }),
    pages: pageRangesParam('Pages to read, e.g. "1-3,5". Omitted: every page.'),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pdf.extract-text",
  family: "pdf",
  title: "Extract text from PDF",
  description: "Extracts the text of a PDF (no OCR: scanned pages without a text layer give empty text).",
  io: { accepts: ["pdf"], produces: ["txt", "json"], hostFiles: true, blobInputs: true },
  params,
  deterministic: true,
  // mupdf reads the input through a stream, a page at a time: from its host file on the server, a
  // 1 GB PDF of scanned pages added 122 MB to the worker. Memory per input byte on this device
  // (bytes): Chromium's renderer peak grew 1.1x the input's growth between 32 and 128 MB PDFs of
  // scanned pages, read from the picked File (2026-11-26, bun bench/web-pdf-memory.ts; 1.9x was
  // measured on whole bytes in a server worker, bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 2 * 1024 * 1024 * 1024 - 1, timeoutMs: 120_000, memoryPerInputByte: 1.1 },
} satisfies ToolManifest;
