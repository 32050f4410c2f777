/**
 * Opaque list cursors: the (createdAt, id) of the last row of a page, so the next page starts
 * strictly after it in newest-first order, stable under inserts.
 */
import { fail } from "@vektor/shared/errors";
import { sql, type Column, type SQL } from "drizzle-orm";

export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString("base64url");
}

export function decodeCursor(cursor: string): { at: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString().split("|");
  const at = new Date(iso ?? "");
  if (!id || Number.isNaN(at.getTime())) throw fail.validation("cursor is not valid");
  return { at, id };
}

/** Splits the limit+1 rows a query fetched into the page and the next cursor. */
export function pageOf<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

/** A prepared query, as drizzle's `.prepare(name)` returns it. */
interface Prepared<T> {
  execute(params?: Record<string, unknown>): Promise<T[]>;
}

/**
 * A newest-first page query prepared once, in two variants (first page, and after a cursor):
 * building a select in drizzle costs more CPU than the database takes to answer it, so the hot
 * lists build theirs at start-up. `build(after)` returns the query with `after` in its WHERE
 * (undefined for the first page) and `sql.placeholder("limit")` as its limit; the function it
 * gives runs a page with `params` for the other placeholders. "After a cursor" is a row
 * comparison, which an index on (owner, created_at, id) answers as a range (an OR of the two
 * columns' conditions made every later page scan and filter the pages before it).
 */
export function preparedPages<T>(name: string, createdAt: Column, id: Column, build: (after: SQL | undefined) => { prepare(name: string): Prepared<T> }) {
  const first = build(undefined).prepare(`${name}_first`);
  const next = build(sql`(${createdAt}, ${id}) < (${sql.placeholder("afterAt")}::timestamptz, ${sql.placeholder("afterId")})`).prepare(`${name}_next`);
  return (params: Record<string, unknown>, limit: number, cursor: string | undefined): Promise<T[]> => {
    if (!cursor) return first.execute({ ...params, limit });
    const after = decodeCursor(cursor);
    return next.execute({ ...params, limit, afterAt: after.at.toISOString(), afterId: after.id });
  };
}
