/**
 * A user's own row by id. Someone else's id answers NOT_FOUND exactly like an unknown one, so an
 * id never reveals that it exists.
 */
import { fail } from "@vektor/shared/errors";
import { and, eq } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db, Tx } from "./client";

/** A table of rows that belong to one account (`id`, and `user_id` as ownerId() declares it). */
type OwnedTable = PgTable & { id: AnyPgColumn; userId: AnyPgColumn };

/** The row of `table` with this id if `userId` owns it, else NOT_FOUND naming `what`. */
export async function ownedRow<T extends OwnedTable>(db: Db | Tx, table: T, id: string, userId: string, what: string): Promise<T["$inferSelect"]> {
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), eq(table.userId, userId)));
  if (!row) throw fail.notFound(what);
  return row as T["$inferSelect"];
}
