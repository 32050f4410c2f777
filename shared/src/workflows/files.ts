/**
 * Pure helpers over the files a workflow step sees, shared by the server's node kinds and the
 * browser runner: which formats a file is, name matching, de-duplication, safe file names and
 * ZIP entry names. A file here is anything with a name, a MIME type and a format; the server
 * passes its file rows, the browser its local files.
 */
import { candidateFormats } from "../formats";

/** What the pure node behaviours read of a file. */
export interface FileFacts {
  filename: string;
  mime: string;
  size: number;
  /** Format id from shared/formats (sniffed), or null when none matched. */
  format: string | null;
}

/** The formats a file may be: its sniffed format, else what its MIME type and name suggest. */
export function fileFormats(file: Pick<FileFacts, "format" | "mime" | "filename">): string[] {
  if (file.format) return [file.format];
  return candidateFormats(file.mime, file.filename).map((f) => f.id);
}

/**
 * Whether `filename` starts with `prefix` and ends with `suffix` (either may be empty or absent).
 * Case-insensitive, because `.PDF` and `.pdf` are the same kind of file to the people who set it.
 */
export function matchesPrefixSuffix(filename: string, prefix?: string, suffix?: string): boolean {
  const name = filename.toLowerCase();
  return name.startsWith((prefix ?? "").toLowerCase()) && name.endsWith((suffix ?? "").toLowerCase());
}

/** `files` without repeated ids, first occurrence kept (inputs may reach a node by two paths). */
export function uniqueFiles<T extends { id: string }>(files: readonly T[]): T[] {
  const seen = new Set<string>();
  return files.filter((f) => !seen.has(f.id) && (seen.add(f.id), true));
}

/** Longest file name a node writes (most file systems stop at 255 bytes). */
export const MAX_FILENAME = 200;

/**
 * A file name that is safe in a download and a ZIP entry: no path separators, no `..`, no
 * control characters, no leading dots or spaces, at most MAX_FILENAME characters (the
 * extension kept). Empty results become `fallback`.
 */
export function safeFilename(name: string, fallback = "file"): string {
  let out = name
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/[/\\]/g, "_")
    .replace(/\.{2,}/g, ".")
    .trim()
    .replace(/^[.\s]+/, "");
  if (out.length > MAX_FILENAME) {
    const dot = out.lastIndexOf(".");
    const ext = dot > 0 && out.length - dot <= 16 ? out.slice(dot) : "";
    out = out.slice(0, MAX_FILENAME - ext.length) + ext;
  }
  return out || fallback;
}

/** `name` split into stem and extension (with the dot); a leading dot is not an extension. */
export function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? { stem: name.slice(0, dot), ext: name.slice(dot) } : { stem: name, ext: "" };
}

/**
 * ZIP entry names for files named `names`: no paths or dot-dot, unique (case-insensitively)
 * within the archive, a repeated name numbered `plan (2).pdf`. The server's ZIPs (batches,
 * sink.zip) and the browser's (sink.zip, Download all) name their entries with it.
 */
export function safeEntryNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((raw) => {
    let base = raw.replace(/[\\/]/g, "_").replace(/[\u0000-\u001f\u007f]/g, "").replace(/^\.+/, "").trim() || "output";
    if (base.length > 200) base = base.slice(-200);
    const { stem, ext } = splitExtension(base);
    let name = base;
    for (let i = 2; seen.has(name.toLowerCase()); i++) name = `${stem} (${i})${ext}`;
    seen.add(name.toLowerCase());
    return name;
  });
}
