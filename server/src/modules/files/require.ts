/** The check every consumer of a user's files makes first: each id is the caller's, and UPLOADED. */
import { fail } from "@vektor/shared/errors";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { file } from "../../db/schema";

/** Throws NOT_FOUND for an id that is not the user's (another user's files do not exist for them), INVALID_STATE for one not yet confirmed. */
export async function requireUploaded(db: Db, userId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db
    .select({ id: file.id, status: file.status })
    .from(file)
    .where(and(eq(file.userId, userId), inArray(file.id, ids)));
  const found = new Map(rows.map((r) => [r.id, r.status]));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw fail.notFound(`File ${missing}`);
  const pending = ids.find((id) => found.get(id) !== "UPLOADED");
  if (pending) throw fail.invalidState(`File ${pending} is not UPLOADED (confirm it first)`);
}
