/**
 * A DWG or DXF input, told apart by its content (not its name), read into the drawing model.
 * Drawings with more objects than MAX_OBJECTS are refused before the readers build them, so a
 * million-entity file answers at once instead of exhausting the worker's memory.
 */
import { ToolError, type ToolInput } from "@vektor/shared/tools/manifest";
import { readDwg } from "./dwg";
import { isBinaryDxf } from "./dxf-binary";
import { readDxf } from "./dxf";
import type { Drawing } from "./model";

export const MAX_OBJECTS = 500_000;

const DWG_MAGIC = /^(AC1\d{3}|AC[12]\.\d{1,2}|MC0\.0)/;

export type DrawingKind = "dwg" | "dxf";

/** What the bytes are, or null for neither. */
export function drawingKind(bytes: Uint8Array): DrawingKind | null {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 4096));
  if (DWG_MAGIC.test(head)) return "dwg";
  if (isBinaryDxf(bytes)) return "dxf";
  const lines = head.replace(/^\uFEFF/, "").split(/\r?\n/).map((l) => l.trim());
  let i = 0;
  while (lines[i] === "999") i += 2;
  return lines[i] === "0" && lines[i + 1] === "SECTION" ? "dxf" : null;
}

const isDigit = (b: number) => b >= 0x30 && b <= 0x39;

/**
 * How many group-0 records (entities, table entries, objects) an ASCII DXF holds: lines "0"
 * whose next line is a name, not a number (a "0" value, such as layer 0, is followed by the
 * next group code). Scanning bytes avoids decoding a huge file twice.
 */
function dxfRecordCount(bytes: Uint8Array): number {
  let count = 0;
  for (let i = 0; i + 2 < bytes.length; i++) {
    if (bytes[i] !== 0x30 || (bytes[i + 1] !== 0x0a && bytes[i + 1] !== 0x0d)) continue;
    let j = i - 1;
    while (j >= 0 && bytes[j] === 0x20) j--;
    if (j >= 0 && bytes[j] !== 0x0a) continue;
    let k = i + 1;
    while (k < bytes.length && (bytes[k] === 0x0a || bytes[k] === 0x0d || bytes[k] === 0x20)) k++;
    let end = k;
    while (end < bytes.length && isDigit(bytes[end])) end++;
    // A line of digits only is a group code: this "0" was a value.
    if (end > k && (end >= bytes.length || bytes[end] === 0x0a || bytes[end] === 0x0d || bytes[end] === 0x20)) continue;
    count++;
  }
  return count;
}

function tooLarge(count: number): ToolError {
  return new ToolError("INPUT_TOO_LARGE", `The drawing holds about ${count.toLocaleString("en")} objects; the drawing tools read at most ${MAX_OBJECTS.toLocaleString("en")}`);
}

export async function readDrawing(input: ToolInput): Promise<Drawing> {
  const kind = drawingKind(input.bytes);
  if (!kind) throw new ToolError("INPUT_INVALID", `"${input.name}" is neither a DWG (it would start with a version such as AC1032) nor a DXF (it would start with a SECTION)`);
  if (kind === "dwg") return readDwg(input.bytes, MAX_OBJECTS, tooLarge);
  if (!isBinaryDxf(input.bytes)) {
    const count = dxfRecordCount(input.bytes);
    if (count > MAX_OBJECTS) throw tooLarge(count);
  }
  return readDxf(input.bytes);
}
