/**
 * Opening a PDF the same way in every tool: a quick look at the bytes first (is it a PDF, does
 * it end), then pdf-lib or mupdf, with their failures mapped to the job error codes.
 */
import { ToolError, type ToolInput } from "@vektor/shared/tools/manifest";
import type { PDFDocument as LibDocument } from "pdf-lib";
import { errorMessage } from "../../runtime/context";
import { loadMupdf, takeMupdfWarnings, type Mupdf } from "../init";

const latin1 = new TextDecoder("latin1");
const HEAD = 1024;
const TAIL = 4096;

/** Throws INPUT_INVALID unless `input` starts like a PDF and still has its end-of-file marker. */
export function assertPdfBytes(input: ToolInput): void {
  const head = latin1.decode(input.bytes.subarray(0, HEAD));
  if (!head.includes("%PDF-")) throw new ToolError("INPUT_INVALID", `"${input.name}" is not a PDF (no %PDF- header)`);
  const tail = latin1.decode(input.bytes.subarray(Math.max(0, input.bytes.length - TAIL)));
  if (!tail.includes("%%EOF")) {
    throw new ToolError("INPUT_INVALID", `"${input.name}" looks truncated: the PDF end-of-file marker (%%EOF) is missing`);
  }
}

/** `1.7` from the `%PDF-1.7` header. */
export function pdfHeaderVersion(bytes: Uint8Array): string | undefined {
  return /%PDF-(\d\.\d)/.exec(latin1.decode(bytes.subarray(0, HEAD)))?.[1];
}

/** Loads `input` with pdf-lib (metadata left untouched, so output stays deterministic). */
export async function openWithPdfLib(input: ToolInput): Promise<LibDocument> {
  assertPdfBytes(input);
  const { PDFDocument } = await import("pdf-lib");
  let doc: LibDocument;
  try {
    doc = await PDFDocument.load(input.bytes, { updateMetadata: false });
  } catch (err) {
    // pdf-lib's EncryptedPDFError is an ES5-compiled subclass: instanceof does not hold, the message does.
    if (/is encrypted/.test(errorMessage(err))) {
      throw new ToolError("INPUT_UNSUPPORTED", `"${input.name}" is encrypted or password-protected; remove the protection first`);
    }
    throw new ToolError("INPUT_INVALID", `"${input.name}" is not a readable PDF: ${errorMessage(err)}`);
  }
  let pages: number;
  try {
    pages = doc.getPageCount();
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `"${input.name}" has no readable page tree: ${errorMessage(err)}`);
  }
  if (pages === 0) throw new ToolError("INPUT_EMPTY", `"${input.name}" has no pages`);
  return doc;
}

/** A PDF opened with mupdf; call `close()` when done (WASM memory is not garbage-collected promptly). */
export interface MupdfHandle {
  lib: Mupdf;
  doc: InstanceType<Mupdf["PDFDocument"]>;
  pageCount: number;
  /** What mupdf logged while opening (e.g. a repaired cross-reference table). */
  warnings: string[];
  close(): void;
}

/** Opens `input` with mupdf; INPUT_INVALID / INPUT_UNSUPPORTED / INPUT_EMPTY as appropriate. */
export async function openWithMupdf(input: ToolInput): Promise<MupdfHandle> {
  assertPdfBytes(input);
  const lib = await loadMupdf();
  takeMupdfWarnings();
  let any: InstanceType<Mupdf["Document"]>;
  try {
    any = lib.Document.openDocument(input.bytes, "application/pdf");
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `"${input.name}" is not a readable PDF: ${errorMessage(err)}`);
  }
  const doc = any.asPDF();
  const close = () => any.destroy();
  try {
    if (!doc) throw new ToolError("INPUT_INVALID", `"${input.name}" did not open as a PDF`);
    if (doc.needsPassword()) {
      throw new ToolError("INPUT_UNSUPPORTED", `"${input.name}" is password-protected; remove the protection first`);
    }
    const pageCount = doc.countPages();
    if (pageCount === 0) throw new ToolError("INPUT_EMPTY", `"${input.name}" has no pages`);
    return { lib, doc, pageCount, warnings: takeMupdfWarnings(), close };
  } catch (err) {
    close();
    if (err instanceof ToolError) throw err;
    throw new ToolError("INPUT_INVALID", `"${input.name}" is not a readable PDF: ${errorMessage(err)}`);
  }
}
