/**
 * The palette of steps to add: the catalog grouped as a person looks for it (where a run starts,
 * where files come from, tools by family, logic, where results go), and a search by name and
 * by file format ("png" finds what takes or gives PNG). The catalog's order is kept within a
 * group, so a family reads as the tool registry lists it.
 */
import { FORMATS } from "@vektor/shared/formats";
import { NODE_CATEGORIES } from "@vektor/shared/schemas/vocab";
import type { CatalogEntry } from "./types";

export interface PaletteGroup {
  label: string;
  /** The catalog category the group draws from. */
  category: CatalogEntry["category"];
  /** op groups: the tool family (`pdf`, `pointcloud`, `workflow`). */
  family?: string;
  entries: CatalogEntry[];
}

const CATEGORY_LABELS: Record<CatalogEntry["category"], string> = { trigger: "Triggers", source: "Sources", op: "Operations", logic: "Logic", sink: "Sinks" };

/** Families whose name is not just a capitalised word. */
const FAMILY_LABELS: Record<string, string> = {
  pdf: "PDF",
  cad: "CAD",
  gis: "GIS",
  pcb: "PCB",
  bim: "BIM",
  pointcloud: "Point clouds",
  media: "Media",
  drawing: "Drawings",
  mesh: "Meshes",
  workflow: "Workflows",
};

/** The tool family of an op type: the segment after `op.` (`op.pdf.compress` → `pdf`). */
export const familyOf = (type: string): string => type.split(".")[1] ?? type;

/** A family's name for people: known acronyms upper-cased, others capitalised. */
export function familyLabel(family: string): string {
  return FAMILY_LABELS[family] ?? family.charAt(0).toUpperCase() + family.slice(1).replace(/-/g, " ");
}

/** Triggers, Sources, one group per tool family, Logic, Sinks; empty groups left out. */
export function paletteGroups(catalog: readonly CatalogEntry[]): PaletteGroup[] {
  const groups: PaletteGroup[] = [];
  for (const category of NODE_CATEGORIES) {
    const entries = catalog.filter((e) => e.category === category);
    if (category !== "op") {
      if (entries.length) groups.push({ label: CATEGORY_LABELS[category], category, entries });
      continue;
    }
    const families = [...new Set(entries.map((e) => familyOf(e.type)))];
    for (const family of families) groups.push({ label: familyLabel(family), category, family, entries: entries.filter((e) => familyOf(e.type) === family) });
  }
  return groups;
}

const formatTitles = new Map<string, string>(FORMATS.map((f) => [f.id, f.title.toLowerCase()]));

/** The formats an entry takes or gives by name ("any" and "inputs" name none). */
function formatsOf(entry: CatalogEntry): string[] {
  const { accepts, produces } = entry.io;
  return [...(accepts === "any" ? [] : accepts), ...(produces === "inputs" ? [] : produces)];
}

/** How well an entry matches one search word: 3 title starts with it, 2 title or type has it, 1 a format, 0 not at all. */
function wordScore(entry: CatalogEntry, word: string): number {
  const title = entry.title.toLowerCase();
  if (title.startsWith(word) || title.split(/\s+/).some((w) => w.startsWith(word))) return 3;
  if (title.includes(word) || entry.type.toLowerCase().includes(word)) return 2;
  // A format by id (png) or by name (geopackage); "any format" is no match, or every logic step would be one.
  const formats = formatsOf(entry);
  if (formats.some((f) => f === word || formatTitles.get(f)?.includes(word))) return 1;
  return 0;
}

/**
 * The entries every word of `query` matches (by title, type, or a format they take or give),
 * best first: title matches before format matches, then catalog order. An empty query lists all.
 */
export function searchPalette(catalog: readonly CatalogEntry[], query: string): CatalogEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...catalog];
  const scored = catalog.map((entry, i) => ({ entry, i, scores: words.map((w) => wordScore(entry, w)) }));
  return scored
    .filter((s) => s.scores.every((score) => score > 0))
    .map((s) => ({ ...s, score: s.scores.reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((s) => s.entry);
}
