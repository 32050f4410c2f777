/** What the intro lists: per tool family, the formats its tools read, by their human names. */
import { formatInfo } from "@vektor/shared/formats";
import type { ToolInfo } from "../../tools/catalog";
import { familyTitle } from "../../tools/family-titles";

export interface FamilyFormats {
  family: string;
  title: string;
  formats: string[];
}

export function formatsByFamily(tools: ToolInfo[]): FamilyFormats[] {
  const byFamily = new Map<string, Set<string>>();
  for (const tool of tools) {
    const set = byFamily.get(tool.family) ?? new Set<string>();
    for (const id of tool.accepts) set.add(formatInfo(id)?.title ?? id);
    byFamily.set(tool.family, set);
  }
  return [...byFamily].map(([family, set]) => ({ family, title: familyTitle(family), formats: [...set] }));
}
