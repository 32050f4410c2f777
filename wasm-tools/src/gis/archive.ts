/**
 * Shapefiles travel as ZIP archives (one .shp with its .shx, .dbf, .prj, .cpg). Unpacking and
 * packing happen here, in plain JavaScript (fflate), with a cap on what an archive may expand to
 * and fixed timestamps so the same shapefile always gives the same ZIP bytes.
 */
import { ToolError, type ToolInput } from "@vektor/shared/tools/manifest";
import { unzipSync, zipSync, type Zippable } from "fflate";
import { errorMessage } from "../runtime/context";

/** What one archive may expand to (a guard against ZIP bombs). */
export const MAX_UNZIPPED_BYTES = 1024 * 1024 * 1024;

/** Shapefile parts kept from an archive; anything else (readme, thumbnails, __MACOSX) is ignored. */
const SHAPE_PARTS = /\.(shp|shx|dbf|prj|cpg|qix|sbn|sbx|qpj)$/i;

/** Files written into archives carry this modification time (DOS dates start in 1980). */
const FIXED_MTIME = new Date(Date.UTC(2000, 0, 1));

/** The shapefile parts of a ZIP, by base name (folders inside the archive are flattened). */
export function unzipShapefiles(input: ToolInput): Map<string, Uint8Array> {
  let total = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(input.bytes, {
      filter: (file) => {
        const base = file.name.split("/").pop() ?? "";
        if (file.name.startsWith("__MACOSX/") || base.startsWith("._") || !SHAPE_PARTS.test(base)) return false;
        total += file.originalSize;
        if (total > MAX_UNZIPPED_BYTES) {
          throw new ToolError("INPUT_TOO_LARGE", `"${input.name}" expands to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB`);
        }
        return true;
      },
    });
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError("INPUT_INVALID", `"${input.name}" is not a readable ZIP archive (truncated or corrupt): ${errorMessage(err)}`);
  }
  const files = new Map<string, Uint8Array>();
  for (const [path, bytes] of Object.entries(entries)) {
    const base = path.split("/").pop() as string;
    const key = base.toLowerCase();
    if ([...files.keys()].some((k) => k.toLowerCase() === key)) {
      throw new ToolError("INPUT_UNSUPPORTED", `"${input.name}" holds two files named "${base}" in different folders; put each shapefile in its own ZIP`);
    }
    files.set(base, bytes);
  }
  if (![...files.keys()].some((name) => /\.shp$/i.test(name))) {
    throw new ToolError("INPUT_INVALID", `"${input.name}" is a ZIP archive without a shapefile in it (no .shp file)`);
  }
  return files;
}

/** A ZIP of `files` (name -> bytes), deflated, with fixed timestamps: the same files give the same bytes. */
export function zipFiles(files: Map<string, Uint8Array>): Uint8Array {
  const entries: Zippable = {};
  for (const [name, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) entries[name] = [bytes, { mtime: FIXED_MTIME }];
  return zipSync(entries, { level: 6 });
}
