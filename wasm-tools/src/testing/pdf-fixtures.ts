/**
 * PDFs made in code for the tests: one line per page, text documents with known words per page,
 * and a deliberately bloated one (raw, unfiltered image streams, the same image stored many times).
 */
import { concatTransformationMatrix, drawObject, PDFDocument, PDFName, PDFNumber, popGraphicsState, pushGraphicsState, StandardFonts } from "pdf-lib";

/** The words printed on page `n` of a text fixture (unique per page, so page order can be checked). */
export function pageWords(label: string, n: number): string {
  return `${label} page ${n} marker${label}${n}`;
}

/**
 * The small upload most service tests need: `pages` A4 pages, page n carrying the one line
 * `line(n)` (18 pt, near the top), titled `title` when given.
 */
export async function linePdf(pages: number, line: (n: number) => string, title?: string): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) doc.addPage([595, 842]).drawText(line(n), { x: 50, y: 780, size: 18, font });
  if (title !== undefined) doc.setTitle(title);
  return new Uint8Array(await doc.save());
}

/** A PDF of `pages` A4 pages, each with `pageWords(label, n)` and a paragraph of filler text. */
export async function makeTextPdf(pages: number, label = "Doc", sizes?: [number, number][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage(sizes?.[n - 1] ?? [595, 842]);
    page.drawText(pageWords(label, n), { x: 50, y: page.getHeight() - 80, size: 20, font });
    page.drawText("The quick brown fox jumps over the lazy dog.", { x: 50, y: page.getHeight() - 120, size: 12, font });
  }
  doc.setTitle(`${label} title`);
  doc.setAuthor("Fixture Author");
  return doc.save();
}

/**
 * A PDF of `pages` pages of `perPage` raw (unfiltered) RGB images of the same smooth `size` by
 * `size` picture, each stored again, as careless producers do: deflate and de-duplication both
 * have work to do. By default 30 images of 200x200 (~3.6 MB); the benchmark makes larger ones.
 */
export async function makeBloatedPdf(pages = 5, perPage = 6, size = 200): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pixels = new Uint8Array(size * size * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + (i >> 9)) % 251;
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Bloated page ${p}`, { x: 50, y: 780, size: 18, font });
    for (let k = 0; k < perPage; k++) {
      const image = doc.context.stream(pixels, {
        Type: "XObject",
        Subtype: "Image",
        Width: size,
        Height: size,
        ColorSpace: "DeviceRGB",
        BitsPerComponent: 8,
      });
      const name = page.node.newXObject("Im", doc.context.register(image));
      const x = 40 + (k % 3) * 180;
      const y = 420 - Math.floor(k / 3) * 200;
      page.pushOperators(pushGraphicsState(), concatTransformationMatrix(170, 0, 0, 170, x, y), drawObject(name), popGraphicsState());
    }
  }
  return doc.save({ useObjectStreams: false });
}

/** A PDF whose catalog's page tree has no pages (valid syntax, nothing to show). */
export async function makeZeroPagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  return doc.save({ addDefaultPage: false });
}

/** A text PDF whose page tree root carries `/Rotate rotate`: every page inherits it. */
export async function makeInheritedRotationPdf(pages: number, rotate: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makeTextPdf(pages, "Rot"), { updateMetadata: false });
  doc.catalog.Pages().set(PDFName.of("Rotate"), PDFNumber.of(rotate));
  return doc.save();
}
