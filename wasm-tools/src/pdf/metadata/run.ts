/** pdf.metadata with pdf-lib: read the Info dictionary and page boxes, or write four Info fields. */
import type { ToolRun } from "@vektor/shared/tools/manifest";
import type { PDFDocument } from "pdf-lib";
import { jsonBytes, output, stem } from "../../runtime/context";
import { openWithPdfLib, pdfHeaderVersion } from "../common/open";
import type { Params } from "./manifest";

/** The JSON this tool reports. */
export interface PdfMetadata {
  pdfVersion: string | null;
  pageCount: number;
  title: string | null;
  author: string | null;
  subject: string | null;
  keywords: string | null;
  creator: string | null;
  producer: string | null;
  creationDate: string | null;
  modificationDate: string | null;
  pages: { number: number; width: number; height: number; rotation: number }[];
}

export const run: ToolRun<Params> = async ([input], params, ctx) => {
  const doc = await openWithPdfLib(input);
  const { title, author, subject, keywords } = params;
  if (title === undefined && author === undefined && subject === undefined && keywords === undefined) {
    return [output(`${stem(input.name)}-metadata.json`, "json", jsonBytes(describe(doc, input.bytes)))];
  }
  if (title !== undefined) doc.setTitle(title);
  if (author !== undefined) doc.setAuthor(author);
  if (subject !== undefined) doc.setSubject(subject);
  if (keywords !== undefined) doc.setKeywords([keywords]);
  ctx.onProgress(0.5, "saving");
  return [output(`${stem(input.name)}.pdf`, "pdf", await doc.save())];
};

function describe(doc: PDFDocument, bytes: Uint8Array): PdfMetadata {
  return {
    pdfVersion: pdfHeaderVersion(bytes) ?? null,
    pageCount: doc.getPageCount(),
    title: safe(() => doc.getTitle()),
    author: safe(() => doc.getAuthor()),
    subject: safe(() => doc.getSubject()),
    keywords: safe(() => doc.getKeywords()),
    creator: safe(() => doc.getCreator()),
    producer: safe(() => doc.getProducer()),
    creationDate: safe(() => iso(doc.getCreationDate())),
    modificationDate: safe(() => iso(doc.getModificationDate())),
    pages: doc.getPages().map((page, i) => {
      const { width, height } = page.getSize();
      return { number: i + 1, width: round(width), height: round(height), rotation: page.getRotation().angle };
    }),
  };
}

/** A malformed Info entry (bad date, wrong type) reads as null rather than failing the whole report. */
function safe<T>(read: () => T | undefined): T | null {
  try {
    return read() ?? null;
  } catch {
    return null;
  }
}

function iso(date: Date | undefined): string | undefined {
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
