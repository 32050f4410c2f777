/**
 * Opaque list cursors: the (createdAt, id) of the last row of a page, so the next page starts
 * strictly after it in newest-first order, stable under inserts.
 */
import { fail } from "@vektor/shared/errors";
import { and, eq, lt, or, type Column } from "drizzle-orm";

export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString("base64url");
}

export function decodeCursor(cursor: string): { at: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString().split("|");
  const at = new Date(iso ?? "");
  if (!id || Number.isNaN(at.getTime())) throw fail.validation("cursor is not valid");
  return { at, id };
}

/** The WHERE condition "after this cursor" for a newest-first (createdAt, id) ordering. */
export function afterCursor(cursor: string | undefined, createdAt: Column, id: Column) {
  if (!cursor) return undefined;
  const after = decodeCursor(cursor);
  return or(lt(createdAt, after.at), and(eq(createdAt, after.at), lt(id, after.id)));
}

/** Splits the limit+1 rows a query fetched into the page and the next cursor. */
export function pageOf<T extends { createdAt: Date; id: string }>(rows: T[], limit: number): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
}
