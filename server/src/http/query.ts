/** Query-string helpers shared by list endpoints. */
import { fail } from "@vektor/shared/errors";

/** `limit` as an integer in 1..max (default `fallback`); anything else is a VALIDATION_ERROR. */
export function parseLimit(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw fail.validation(`limit must be an integer from 1 to ${max}`);
  return n;
}

/** A comma-separated `keys` filter; null when absent. */
export function parseKeys(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const keys = raw.split(",").map((k) => k.trim());
  if (keys.some((k) => !/^[a-z0-9_.]{1,100}$/.test(k))) throw fail.validation("keys must be comma-separated key names such as batch.enabled,upload.max_size_mb");
  return keys;
}
