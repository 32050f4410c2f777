/**
 * A PDF of scanned-looking pages of any size, written to disk piece by piece (never held whole in
 * memory): the big inputs of the benchmarks (bench/tools-big, bench/batch.ts) and of the browser
 * streaming spec (e2e/pdf-stream.e2e.ts). Bun or Node only.
 */
import { randomFillSync } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";

/**
 * Writes `path`: `pages` pages, each one uncompressed RGB image of random (incompressible) pixels
 * of about `pageBytes` bytes, and with `line(n)` given, that line of text (Helvetica) over page n's
 * image, so its text can be extracted. qpdf --check accepts it; pdf-lib reads and rewrites it
 * unchanged in size. Answers its size in bytes.
 */
export function writeImagePdf(path: string, pages: number, pageBytes: number, line?: (n: number) => string): number {
  const side = Math.max(16, Math.floor(Math.sqrt(pageBytes / 3)));
  const imageBytes = side * side * 3;
  const fd = openSync(path, "w");
  let pos = 0;
  const offsets: number[] = [];
  const put = (data: string | Uint8Array) => {
    const bytes = typeof data === "string" ? Buffer.from(data, "latin1") : data;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    pos += bytes.length;
  };
  const obj = (n: number, body: string) => {
    offsets[n] = pos;
    put(`${n} 0 obj\n${body}\nendobj\n`);
  };
  // The text's font, a standard one (not embedded): object 3 + 3 * pages, after the pages'.
  const font = 3 + 3 * pages;
  try {
    put("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n");
    // 1: catalog, 2: pages; page i: 3+3i (page), 4+3i (content), 5+3i (image)
    obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    const kids = Array.from({ length: pages }, (_, i) => `${3 + 3 * i} 0 R`).join(" ");
    obj(2, `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
    const chunk = new Uint8Array(Math.min(imageBytes, 8 * 1024 * 1024));
    for (let i = 0; i < pages; i++) {
      const [page, content, image] = [3 + 3 * i, 4 + 3 * i, 5 + 3 * i];
      const fonts = line ? ` /Font << /F1 ${font} 0 R >>` : "";
      obj(page, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im0 ${image} 0 R >>${fonts} >> /Contents ${content} 0 R >>`);
      const text = line ? ` BT /F1 18 Tf 50 780 Td (${line(i + 1).replace(/[\\()]/g, "\\$&")}) Tj ET` : "";
      const ops = `q 595 0 0 842 0 0 cm /Im0 Do Q${text}`;
      obj(content, `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`);
      offsets[image] = pos;
      put(`${image} 0 obj\n<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${imageBytes} >>\nstream\n`);
      for (let done = 0; done < imageBytes; ) {
        const n = Math.min(chunk.length, imageBytes - done);
        randomFillSync(chunk, 0, n);
        put(n === chunk.length ? chunk : chunk.subarray(0, n));
        done += n;
      }
      put("\nendstream\nendobj\n");
    }
    if (line) obj(font, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
    const count = line ? font + 1 : font;
    const xref = pos;
    let table = `xref\n0 ${count}\n0000000000 65535 f \n`;
    for (let n = 1; n < count; n++) table += `${String(offsets[n]).padStart(10, "0")} 00000 n \n`;
    put(table);
    put(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  } finally {
    closeSync(fd);
  }
  return pos;
}
