/** Query-string helpers shared by list endpoints. */
import { fail } from "@vektor/shared/errors";

/** `limit` as an integer in 1..max (default `fallback`); anything else is a VALIDATION_ERROR. */
export function parseLimit(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw fail.validation(`limit must be an integer from 1 to ${max}`);
  return n;
}

/** A comma-separated filter; null when absent; one item that does not match `item` fails it all. */
function parseList(raw: string | undefined, item: RegExp, message: string): string[] | null {
  if (raw === undefined) return null;
  const items = raw.split(",").map((k) => k.trim());
  if (items.some((k) => !item.test(k))) throw fail.validation(message);
  return items;
}

/** A comma-separated `keys` filter; null when absent. */
export function parseKeys(raw: string | undefined): string[] | null {
  return parseList(raw, /^[a-z0-9_.]{1,100}$/, "keys must be comma-separated key names such as batch.enabled,upload.max_size_mb");
}

/** The registry's slug rule, `<family>.<operation>` with operation words joined by '-'. */
const TOOL_SLUG = /^[a-z][a-z0-9]*\.[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A comma-separated `slugs` filter; null when absent. Well-formed but unknown slugs pass: the caller leaves them out. */
export function parseSlugs(raw: string | undefined): string[] | null {
  return parseList(raw, TOOL_SLUG, "slugs must be comma-separated tool slugs such as pdf.compress,bim.ifc-to-glb");
}
