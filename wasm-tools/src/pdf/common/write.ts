/**
 * Page-level edits with mupdf: grafting pages between documents and saving. mupdf copies a
 * page's inherited attributes (MediaBox, Resources, Rotate) when it grafts, and shares each
 * source object once per graft map, so fonts and images used by many pages are copied once.
 */
import { mimeOf, type FormatId } from "@vektor/shared/formats";
import { ToolError, type RunContext, type ToolInput, type ToolOutput } from "@vektor/shared/tools/manifest";
import { errorMessage, output } from "../../runtime/context";
import { hostFileAccess } from "../../runtime/host-files";
import type { Mupdf } from "../init";
import { wholeBytes } from "./open";

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

/** How much of an output goes to the host's disk in one write. */
const WRITE_CHUNK = 4 * 1024 * 1024;

/**
 * The output `name` of `bytes`: written into the host's output folder when there is one (the
 * server), else handed back as bytes, copied unless `owned` (they may be a view of WASM memory
 * that is freed afterwards).
 */
export async function emitOutput(ctx: Pick<RunContext, "outputDir">, name: string, format: FormatId, bytes: Uint8Array, owned = false): Promise<ToolOutput> {
  if (!ctx.outputDir) return output(name, format, owned ? bytes : bytes.slice());
  // The output's own name is the host's to store; the file only needs one that no other output of the run has.
  const { file, path } = await hostFileAccess().create(ctx.outputDir, name.replace(/[^\w.-]/g, "_"));
  try {
    for (let at = 0; at < bytes.length; at += WRITE_CHUNK) await file.write(bytes.subarray(at, at + WRITE_CHUNK));
  } finally {
    await file.close();
  }
  return { name, bytes: new Uint8Array(0), mime: mimeOf(format), path };
}

/**
 * `doc` saved with mupdf save `options` into a buffer in mupdf's heap (destroy it when done). The
 * heap ends at 2 GiB: an output that cannot grow there is the file's size, not a fault in it
 * (rotating a 560 MB PDF of scanned pages failed growing the buffer to 827 MB; 504 MB passed).
 */
export function saveBuffer(doc: PdfDocument, name: string, options = ""): ReturnType<PdfDocument["saveToBuffer"]> {
  try {
    return doc.saveToBuffer(options);
  } catch (err) {
    const message = errorMessage(err);
    if (/\b(realloc|malloc|calloc)\b.*failed|out of memory/i.test(message)) {
      throw new ToolError("INPUT_TOO_LARGE", `"${name}" is too large to rewrite: the PDF engine builds the new file in its memory, which ran out (${message})`);
    }
    throw new ToolError("INPUT_INVALID", `"${name}" could not be rewritten: ${message}`);
  }
}

/** The input itself as the output `name`: copied a piece at a time from its host file into the output folder, or its whole bytes. */
export async function emitInput(ctx: Pick<RunContext, "outputDir">, input: ToolInput, name: string, format: FormatId): Promise<ToolOutput> {
  if (!input.path || !ctx.outputDir) return output(name, format, await wholeBytes(input));
  const access = hostFileAccess();
  const source = await access.openRead(input.path);
  const { file, path } = await access.create(ctx.outputDir, name.replace(/[^\w.-]/g, "_"));
  try {
    const chunk = new Uint8Array(WRITE_CHUNK);
    for (let at = 0, n; (n = await source.read(chunk, at)) > 0; at += n) await file.write(chunk.subarray(0, n));
  } finally {
    await Promise.all([source.close(), file.close()]);
  }
  return { name, bytes: new Uint8Array(0), mime: mimeOf(format), path };
}

/**
 * Saves `doc` with mupdf save `options` as the PDF output `outName`. mupdf builds the whole file
 * in a buffer in its heap (mupdf.js has no writer to a stream): the buffer is written from there
 * to the host's output folder, or copied out once, and freed.
 */
export async function savePdf(doc: PdfDocument, ctx: Pick<RunContext, "outputDir">, name: string, outName: string, options = ""): Promise<ToolOutput> {
  const buffer = saveBuffer(doc, name, options);
  try {
    return await emitOutput(ctx, outName, "pdf", buffer.asUint8Array());
  } finally {
    buffer.destroy();
  }
}
