/**
 * The Files screen's words and choices, kept pure so they are tested apart from React: a
 * file's status in plain words, where an output came from, and the selection of rows.
 */
import type { FileRecord, FileSource } from "@vektor/shared/schemas/file";

const STATUS_WORDS: Record<FileRecord["status"], string> = {
  PENDING: "Upload not finished",
  UPLOADED: "Ready",
};

/** A file's status as a person reads it (the API's enum values stay in the API). */
export const statusWord = (status: FileRecord["status"]): string => STATUS_WORDS[status] ?? status;

/** An output's origin in words, "Compress PDF, made from plan.pdf", with the tool's title when it is known. */
export function sourceWords(source: FileSource, toolTitle: (slug: string) => string | undefined): string {
  const by = source.tool ? (toolTitle(source.tool) ?? source.tool) : source.runId ? "A workflow step" : "A job";
  const from = source.inputFilename ? `, made from ${source.inputFilename}` : source.inputFileId ? ", made from a file since deleted" : "";
  return `${by}${from}`;
}

/** The chosen rows, by id, kept across pages and searches (with what the bar needs to show and check). */
export type Chosen<T> = ReadonlyMap<string, T>;

/** The choice with `rows` added (on) or taken out (off). */
export function toggled<T extends { fileId: string }>(chosen: Chosen<T>, rows: readonly T[], on: boolean): Map<string, T> {
  const next = new Map(chosen);
  for (const row of rows) (on ? next.set(row.fileId, row) : next.delete(row.fileId));
  return next;
}

/** The "choose all on this page" box: all of the page's rows chosen, some, or none. */
export function pageChoice(chosen: Chosen<unknown>, ids: readonly string[]): "all" | "some" | "none" {
  const n = ids.filter((id) => chosen.has(id)).length;
  return n === 0 ? "none" : n === ids.length ? "all" : "some";
}

/** Why the chosen files cannot go to Convert, or null when they can. */
export function whyNotRun(chosen: readonly Pick<FileRecord, "status">[], max: number): string | null {
  if (chosen.length > max) return `Choose at most ${max} files to run a tool on.`;
  if (chosen.some((f) => f.status !== "UPLOADED")) return "Some chosen files are not uploaded yet.";
  return null;
}
