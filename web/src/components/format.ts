/** Display helpers shared by the screens. */

/** `1536` -> `1.5 kB`. */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  let value = n;
  let unit = "B";
  for (const u of ["kB", "MB", "GB", "TB"]) {
    if (value < 1000) break;
    value /= 1000;
    unit = u;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${unit}`;
}

/** A date-time from the API in the reader's locale. */
export const formatDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "never");

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
