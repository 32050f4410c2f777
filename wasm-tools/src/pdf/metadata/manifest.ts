/** pdf.metadata: read the document information as JSON, or set title/author/subject/keywords. */
import { type Static, Type } from "@sinclair/typebox";
import type { ToolManifest } from "@vektor/shared/tools/manifest";

const field = (description: string) => Type.Optional(Type.String({ maxLength: 2000, description }));

export const params = Type.Object(
  {
    title: field("New document title"),
    author: field("New author"),
    subject: field("New subject"),
    keywords: field("New keywords, stored as one string"),
  },
  { additionalProperties: false },
);
export type Params = Static<typeof params>;

export const manifest = {
  slug: "pdf.metadata",
  family: "pdf",
  title: "PDF metadata",
  description: "With no params: reports the PDF's version, page count, page sizes and document information (title, author, dates...) as JSON. With title, author, subject or keywords: returns the PDF with those fields set.",
  io: { accepts: ["pdf"], produces: ["json", "pdf"] },
  params,
  deterministic: true,
  // Memory per input byte, in the browser (bytes): pdf-lib holds the document and writes the new one
  // in memory: the worker's peak grew 2.9x the input's growth on 4 and 16 MB PDFs of scanned pages
  // (bun bench/tools-big/per-byte.ts).
  limits: { maxInputBytes: 512 * 1024 * 1024, timeoutMs: 60_000, memoryPerInputByte: 2.9 },
} satisfies ToolManifest;
