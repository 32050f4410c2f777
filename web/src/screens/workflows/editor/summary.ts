/** Short texts about a step for the canvas and the outline: its params in a line. */

const show = (v: unknown): string => (typeof v === "string" ? v : Array.isArray(v) ? v.map(show).join(", ") : JSON.stringify(v));

/** `level 6, name compressed.zip` (at most `max` characters). */
export function paramsSummary(params: Record<string, unknown> | undefined, max = 60): string {
  const text = Object.entries(params ?? {})
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `${k} ${show(v)}`)
    .join(", ");
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
