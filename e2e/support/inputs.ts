/** Inputs for the specs: generated in code (PDF with pdf-lib) or read from /fixtures. */
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { FileSpec } from "./web";

export const FIXTURES = join(import.meta.dir, "..", "..", "fixtures");

/** A PDF of `pages` A4 pages, each with one line of text. */
export async function makePdf(pages: number, text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`${text}, page ${i + 1}`, { x: 50, y: 780, size: 18, font });
  doc.setTitle(text);
  return new Uint8Array(await doc.save());
}

/** A file from /fixtures, named as it is there. */
export function fixtureFile(path: string, mime: string): FileSpec {
  return { name: basename(path), mime, bytes: new Uint8Array(readFileSync(join(FIXTURES, path))) };
}
