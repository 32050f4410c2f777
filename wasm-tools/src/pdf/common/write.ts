/**
 * Page-level edits with mupdf: grafting pages between documents and saving. mupdf copies a
 * page's inherited attributes (MediaBox, Resources, Rotate) when it grafts, and shares each
 * source object once per graft map, so fonts and images used by many pages are copied once.
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import { errorMessage } from "../../runtime/context";
import type { Mupdf } from "../init";

type PdfDocument = InstanceType<Mupdf["PDFDocument"]>;

/** Appends `indices` (0-based) of `source` to the end of `target`, in the given order. */
export function appendPages(target: PdfDocument, source: PdfDocument, indices: number[]): void {
  const map = target.newGraftMap();
  try {
    for (const index of indices) map.graftPage(-1, source, index);
  } finally {
    map.destroy();
  }
}

/** Saves `doc` with mupdf save `options` and copies the bytes out of WASM memory before the buffer is freed. */
export function saveBytes(doc: PdfDocument, name: string, options = ""): Uint8Array {
  try {
    const buffer = doc.saveToBuffer(options);
    const bytes = buffer.asUint8Array().slice();
    buffer.destroy();
    return bytes;
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `"${name}" could not be rewritten: ${errorMessage(err)}`);
  }
}
