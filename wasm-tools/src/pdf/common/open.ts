/**
 * Opening a PDF the same way in every tool: a quick look at the bytes first (is it a PDF, does
 * it end), then pdf-lib or mupdf, with their failures mapped to the job error codes.
 */
import { inputSize, ToolError, type ToolInput } from "@vektor/shared/tools/manifest";
import type { PDFDocument as LibDocument } from "pdf-lib";
import type { ReadAt } from "../../runtime/blob-reads";
import { errorMessage } from "../../runtime/context";
import { hostFileAccess } from "../../runtime/host-files";
import { inputReader, inputTail } from "../../runtime/input-reads";
import { loadMupdf, takeMupdfWarnings, type Mupdf } from "../init";

const latin1 = new TextDecoder("latin1");
const HEAD = 1024;
const TAIL = 4096;

/** Throws INPUT_INVALID unless `input` starts like a PDF and still has its end-of-file marker. */
export function assertPdfBytes(input: ToolInput, read = inputReader(input)): void {
  const head = latin1.decode(input.bytes.subarray(0, HEAD));
  if (!head.includes("%PDF-")) throw new ToolError("INPUT_INVALID", `"${input.name}" is not a PDF (no %PDF- header)`);
  const tail = latin1.decode(inputTail(input, read, TAIL));
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

/** The whole input as bytes: its own, its Blob's or its host file's, read in. */
export async function wholeBytes(input: ToolInput): Promise<Uint8Array> {
  if (!input.path) return input.blob ? new Uint8Array(await input.blob.arrayBuffer()) : input.bytes;
  const file = await hostFileAccess().openRead(input.path);
  try {
    const bytes = new Uint8Array(inputSize(input));
    for (let at = 0, n; at < bytes.length && (n = await file.read(bytes.subarray(at), at)) > 0; at += n);
    return bytes;
  } finally {
    await file.close();
  }
}

/** A mupdf stream over the input, read a piece at a time as mupdf asks. */
function inputStream(lib: Mupdf, input: ToolInput, read: ReadAt): InstanceType<Mupdf["Stream"]> {
  const size = inputSize(input);
  return new lib.Stream({
    fileSize: () => size,
    read: (memory, offset, length, position) => read(memory.subarray(offset, offset + length), position),
    close() {},
  });
}

/**
 * Opens `input` with mupdf; INPUT_INVALID / INPUT_UNSUPPORTED / INPUT_EMPTY as appropriate. mupdf
 * reads it through a stream (host file, Blob or bytes) rather than having it copied whole into the WASM
 * heap, unless `whole`: saving with garbage=4 (deduplicating streams) from a stream cost 6.4 bytes
 * per input byte against 3.6 from a copy in its heap (64 MB of scanned pages).
 */
export async function openWithMupdf(input: ToolInput, { whole = false } = {}): Promise<MupdfHandle> {
  const read = inputReader(input);
  assertPdfBytes(input, read);
  const lib = await loadMupdf();
  takeMupdfWarnings();
  const source = whole ? await wholeBytes(input) : inputStream(lib, input, read);
  let any: InstanceType<Mupdf["Document"]>;
  try {
    any = lib.Document.openDocument(source, "application/pdf");
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `"${input.name}" is not a readable PDF: ${errorMessage(err)}`);
  } finally {
    if (source instanceof lib.Stream) source.destroy(); // the document keeps its own reference
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
