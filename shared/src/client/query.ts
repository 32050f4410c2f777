/** Query strings and path segments for the resource modules. */
export type Query = Record<string, string | number | undefined>;

export const enc = encodeURIComponent;

export function qs(q: Query): string {
  const entries = Object.entries(q).filter(([, v]) => v !== undefined) as [string, string | number][];
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}` : "";
}

/** `limit` / `cursor` of the paged lists. */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}
