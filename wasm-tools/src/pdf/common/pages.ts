/**
 * Page selections as people type them: "1-3,5,8-" (1-based, inclusive, "8-" runs to the end).
 * The schema pattern lets the server reject bad syntax up front; a page beyond the document's
 * end can only be caught once the file is open, as PARAMS_INVALID.
 */
import { Type } from "@sinclair/typebox";
import { ToolError } from "@vektor/shared/tools/manifest";

const ITEM = String.raw`\s*\d+\s*(?:-\s*\d*\s*)?`;
/** Regex source for a page-range list such as `1-3,5,8-`. */
export const PAGE_RANGES_PATTERN = `^${ITEM}(?:,${ITEM})*$`;

/** Schema for an optional page selection param (omitted: every page). */
export function pageRangesParam(description: string) {
  return Type.Optional(Type.String({ pattern: PAGE_RANGES_PATTERN, maxLength: 2000, description, examples: ["1-3,5", "2-"] }));
}

/** A 1-based inclusive page range. */
export interface PageRange {
  from: number;
  to: number;
}

/** Parses `spec` against a document of `pageCount` pages; throws PARAMS_INVALID on pages that do not exist. */
export function parsePageRanges(spec: string, pageCount: number): PageRange[] {
  if (!new RegExp(PAGE_RANGES_PATTERN).test(spec)) {
    throw new ToolError("PARAMS_INVALID", `Invalid page ranges "${spec}": use page numbers and ranges such as "1-3,5,8-"`);
  }
  return spec.split(",").map((part) => {
    const [a, b] = part.split("-").map((s) => s.trim());
    const from = Number(a);
    const to = b === undefined ? from : b === "" ? pageCount : Number(b);
    if (from < 1) throw new ToolError("PARAMS_INVALID", `Invalid page range "${part.trim()}": pages are numbered from 1`);
    if (to < from) throw new ToolError("PARAMS_INVALID", `Invalid page range "${part.trim()}": the end comes before the start`);
    if (to > pageCount) {
      throw new ToolError("PARAMS_INVALID", `Page range "${part.trim()}" goes beyond the last page (${pageCount})`);
    }
    return { from, to };
  });
}

/** 0-based page indexes selected by `spec` (undefined: all), ascending, each once. */
export function selectPages(spec: string | undefined, pageCount: number): number[] {
  if (spec === undefined) return Array.from({ length: pageCount }, (_, i) => i);
  const picked = new Set<number>();
  for (const { from, to } of parsePageRanges(spec, pageCount)) for (let p = from; p <= to; p++) picked.add(p - 1);
  return [...picked].sort((x, y) => x - y);
}
