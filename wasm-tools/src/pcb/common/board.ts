/**
 * A board from a set of fabrication files: unzip, name each file's layer type and side with
 * whats-that-gerber (the identification pcb-stackup uses), plot every identified layer.
 */
import { unzipSync } from "fflate";
import whatsThatGerber from "whats-that-gerber";
import { ToolError, type RunContext, type ToolInput } from "@vektor/shared/tools/manifest";
import { checkpoint, errorMessage } from "../../runtime/context";
import { decodeGerberText, plotLayer, svgId, type PlottedLayer } from "./plot";

/** A file of the set, by its path inside the archive. */
export interface BoardFile {
  path: string;
  bytes: Uint8Array;
}

/** A file identified and plotted as one layer of the board. */
export interface BoardLayer {
  path: string;
  type: string;
  side: string;
  plot: PlottedLayer;
}

/** A file left out, and why (unrecognised name, unreadable content). */
export interface SkippedFile {
  path: string;
  reason: string;
}

export interface Board {
  layers: BoardLayer[];
  skipped: SkippedFile[];
}

const ZIP_MAGIC = [0x50, 0x4b];

/** True when `bytes` start like a ZIP archive (local file header or empty-archive record). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === ZIP_MAGIC[0] && bytes[1] === ZIP_MAGIC[1] && (bytes[2] === 3 || bytes[2] === 5);
}

/** The regular files of a ZIP (no folders, no macOS resource forks or hidden files). */
export function unzipBoard(input: ToolInput): BoardFile[] {
  if (!isZip(input.bytes)) throw new ToolError("INPUT_INVALID", `"${input.name}" is not a ZIP archive of Gerber and drill files`);
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(input.bytes);
  } catch (err) {
    throw new ToolError("INPUT_INVALID", `"${input.name}" is not a readable ZIP archive: ${errorMessage(err)}`);
  }
  const files = Object.entries(entries)
    .filter(([path]) => !path.endsWith("/") && !path.startsWith("__MACOSX/") && !baseName(path).startsWith("."))
    .map(([path, bytes]) => ({ path, bytes }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (!files.length) throw new ToolError("INPUT_EMPTY", `"${input.name}" contains no files`);
  return files;
}

/** `gerbers/board-F_Cu.gbr` -> `board-F_Cu.gbr`. */
export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

export interface BoardOptions {
  /** Gap in mm closed when plotting the outline layer (pcb-stackup's `outlineGapFill`). */
  outlineGapFill: number;
  backupUnits?: "in" | "mm";
  /** Plot files whose names are not recognised too, as type `unknown` (for reports; a stackup cannot place them). */
  keepUnrecognised?: boolean;
}

const UNRECOGNISED = "file name not recognised as a Gerber or drill layer";

/**
 * Identifies and plots each file. Files whose names whats-that-gerber does not know, and files
 * that turn out not to be Gerber/Excellon, are skipped with a reason; none left is INPUT_INVALID.
 * Content beats the name where they disagree about drill files: Excellon content is a drill layer.
 */
export function loadBoard(archiveName: string, files: BoardFile[], options: BoardOptions, ctx: RunContext): Board {
  const kinds = whatsThatGerber(files.map((f) => baseName(f.path)));
  const layers: BoardLayer[] = [];
  const skipped: SkippedFile[] = [];
  files.forEach((file, index) => {
    checkpoint(ctx);
    ctx.onProgress((0.8 * index) / files.length, `plotting ${file.path}`);
    const kind = kinds[baseName(file.path)];
    let type: string = kind?.type ?? "unknown";
    let side: string = kind?.side ?? "unknown";
    if (type === "unknown" && !options.keepUnrecognised) {
      skipped.push({ path: file.path, reason: UNRECOGNISED });
      return;
    }
    try {
      const text = decodeGerberText(file.path, file.bytes);
      const plot = (asOutline: boolean) =>
        plotLayer(file.path, text, {
          id: svgId(file.path),
          backupUnits: options.backupUnits,
          plotAsOutline: asOutline ? options.outlineGapFill : undefined,
        });
      let plotted = plot(type === "outline");
      if (plotted.filetype === "drill" && type !== "drill") {
        if (type === "outline") plotted = plot(false);
        type = "drill";
        side = "all";
      }
      layers.push({ path: file.path, type, side, plot: plotted });
    } catch (err) {
      if (err instanceof ToolError && err.code !== "INPUT_INVALID") throw err;
      skipped.push({ path: file.path, reason: type === "unknown" ? `${UNRECOGNISED}, and ${errorMessage(err)}` : errorMessage(err) });
    }
  });
  if (!layers.length) {
    const listed = skipped.slice(0, 10).map((s) => `${s.path} (${s.reason})`).join("; ");
    throw new ToolError("INPUT_INVALID", `"${archiveName}" contains no Gerber or drill files that could be read. Found: ${listed}${skipped.length > 10 ? "; ..." : ""}`);
  }
  return { layers, skipped };
}
