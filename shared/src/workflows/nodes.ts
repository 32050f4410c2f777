/**
 * The pure decisions of workflow node kinds, shared by the server's node kinds (which add the
 * database and object store around them) and the browser runner (which adds local files and
 * the tool worker): which files a filter keeps, what a rename pattern makes of a name, what a
 * ZIP is called, and how an op step splits its inputs into tool runs.
 */
import { ToolError } from "../tools/manifest";
import { fileFormats, safeFilename, splitExtension, uniqueFiles, type FileFacts } from "./files";

// ---- logic.filter ----------------------------------------------------------------------

/** The conditions of a filter (its params); a condition left out matches everything. */
export interface FilterRule {
  formats?: readonly string[];
  glob?: string;
  minSize?: number;
  maxSize?: number;
}

/** A whole-name, case-insensitive matcher for a glob with `*` and `?` (everything else is literal). */
export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "is");
}

/** Whether `file` passes every condition of `rule`. */
export function matchesFilter(file: Pick<FileFacts, "filename" | "size" | "format" | "mime">, rule: FilterRule): boolean {
  if (rule.formats && !fileFormats(file).some((f) => rule.formats!.includes(f))) return false;
  if (rule.glob !== undefined && !globToRegExp(rule.glob).test(file.filename)) return false;
  if (rule.minSize !== undefined && file.size < rule.minSize) return false;
  if (rule.maxSize !== undefined && file.size > rule.maxSize) return false;
  return true;
}

/** logic.filter: the inputs that pass, and the line its step logs. */
export function filterFiles<T extends FileFacts>(inputs: readonly T[], rule: FilterRule): { kept: T[]; log: string } {
  const kept = inputs.filter((f) => matchesFilter(f, rule));
  return { kept, log: `Kept ${kept.length} of ${inputs.length} file(s)` };
}

// ---- logic.merge -----------------------------------------------------------------------

/** logic.merge: every file its branches gave, each once (the step's inputs are already their union). */
export const mergeFiles = uniqueFiles;

// ---- sink.rename -----------------------------------------------------------------------

/** The placeholders a rename pattern may use; anything else between braces is refused. */
export const RENAME_TOKENS = ["name", "ext", "index", "date"] as const;

/** The pattern (a regular expression's source) a rename pattern param must match. */
export const RENAME_PATTERN = `^(?:[^{}]|\\{(?:${RENAME_TOKENS.join("|")})\\})*$`;

/**
 * The new name of `filename`, the `index`-th input (1-based), in a run started at `startedAt`:
 * `{name}` the name without its extension, `{ext}` the extension with its dot (or nothing),
 * `{index}`, `{date}` as YYYY-MM-DD (UTC). The result is made safe (no `/`, `\`, `..`, control
 * characters).
 */
export function renameFile(pattern: string, filename: string, index: number, startedAt: Date): string {
  const { stem, ext } = splitExtension(filename);
  const values: Record<string, string> = { name: stem, ext, index: String(index), date: startedAt.toISOString().slice(0, 10) };
  const renamed = pattern.replace(/\{(\w+)\}/g, (whole, token: string) => values[token] ?? whole);
  return safeFilename(renamed, safeFilename(filename));
}

/**
 * sink.rename: each input with its new name; `same` when the name did not change (the file
 * itself is then the output, no copy is made).
 */
export function renamePlan<T extends Pick<FileFacts, "filename">>(inputs: readonly T[], pattern: string, startedAt: Date): { file: T; name: string; same: boolean }[] {
  return inputs.map((file, i) => {
    const name = renameFile(pattern, file.filename, i + 1, startedAt);
    return { file, name, same: name === file.filename };
  });
}

// ---- sink.zip --------------------------------------------------------------------------

/** The name a ZIP gets when its node names none. */
export const DEFAULT_ZIP_NAME = "outputs.zip";

/** The ZIP's file name: made safe, `.zip` added when missing. */
export function zipName(name: string): string {
  const safe = safeFilename(name, DEFAULT_ZIP_NAME);
  return safe.toLowerCase().endsWith(".zip") ? safe : `${safe}.zip`;
}

// ---- op.<tool> -------------------------------------------------------------------------

/** What an op step needs to know of its tool. */
export interface OpTool {
  slug: string;
  accepts: readonly string[];
  /** How many files one run takes; above 1 the tool combines all the step's files in one run. */
  minInputs?: number;
  maxInputs?: number;
}

/**
 * How an op step splits its inputs into tool runs: the files its tool does not accept are
 * skipped (one line each to `log`); a tool that takes one file runs once per file, one that takes
 * several (pdf.merge) runs once over all of them, and a count outside its range is an
 * INPUT_INVALID ToolError. No accepted files: no runs (not an error: the step gives nothing).
 */
export function opRuns<T extends FileFacts>(tool: OpTool, inputs: readonly T[], log: (line: string) => void = () => {}): T[][] {
  const accepts = new Set(tool.accepts);
  const files = inputs.filter((file) => {
    if (fileFormats(file).some((f) => accepts.has(f))) return true;
    log(`Skipped "${file.filename}" (${file.format ?? "unknown format"}): ${tool.slug} accepts ${tool.accepts.join(", ")}`);
    return false;
  });
  if (files.length === 0) return [];
  const max = tool.maxInputs ?? 1;
  if (max <= 1) return files.map((f) => [f]);
  const min = tool.minInputs ?? 1;
  if (files.length < min) throw new ToolError("INPUT_INVALID", `${tool.slug} needs at least ${min} files; this step got ${files.length}`);
  if (files.length > max) throw new ToolError("INPUT_INVALID", `${tool.slug} takes at most ${max} files; this step got ${files.length}`);
  return [files];
}
