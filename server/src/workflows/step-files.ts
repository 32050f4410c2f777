/**
 * The storage work workflow nodes ask for (StepFiles), over the real file table and object
 * store. New files belong to the run's owner and name the step's job as their origin, so later
 * features (watch triggers) can tell a run's outputs from the user's own uploads. Their ids are
 * derived from the step's job and their order, so a step re-run after a crash writes the same
 * files again instead of leaving a second copy behind.
 */
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { inJsonList, reusable } from "../db/reusable";
import type { Db } from "../db/client";
import { file } from "../db/schema";
import { putZip } from "../storage/zip";
import type { ObjectStore } from "../storage/types";
import type { FileRef, StepFiles } from "./nodes/types";

/**
 * A file row as a step sees it: only a FileRef's columns. Every step reads its inputs' rows (five
 * times in a 5-step run), and a whole row is twice the columns to send and map.
 */
export const REF_COLUMNS: { [K in keyof FileRef]: (typeof file)[K] } = { id: file.id, filename: file.filename, mime: file.mime, size: file.size, format: file.format, createdAt: file.createdAt };

/** The owner's UPLOADED files with these ids, in the order given (unknown ids left out). */
export async function filesByIds(db: Db, userId: string, ids: string[]): Promise<FileRef[]> {
  if (ids.length === 0) return [];
  const rows = await ownUploaded(db, { userId, ids: JSON.stringify(ids) });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/** filesByIds's statement, built once (every step runs it): the ids as one JSON array, so its SQL is the same for any number. */
const ownUploaded = reusable((db) =>
  db
    .select(REF_COLUMNS)
    .from(file)
    .where(and(eq(file.userId, sql.placeholder("userId")), inJsonList(file.id, "ids"), eq(file.status, "UPLOADED"))),
);

/** The id of the n-th file a step's job writes: the same on every run of that job. */
function derivedId(jobId: string, n: number): string {
  const digest = new Bun.CryptoHasher("sha256").update(`${jobId}:${n}`).digest("hex");
  return `f_${BigInt(`0x${digest.slice(0, 30)}`).toString(36)}`;
}

export function stepFiles(db: Db, store: ObjectStore, userId: string, jobId: string): StepFiles {
  let written = 0;
  const nextKey = () => {
    const id = derivedId(jobId, ++written);
    return { id, key: `u/${userId}/${id}` };
  };
  // The format is known, not guessed from the name: a guess takes a generic .zip for a
  // shapefile (the first ZIP format listed) and a renamed file's new extension for its content.
  const save = async (id: string, key: string, filename: string, mime: string, format: string | null, stored: { size: number; sha256: string }, sourceFileId: string | null) => {
    const values = { id, userId, filename, mime, size: stored.size, checksum: stored.sha256, status: "UPLOADED" as const, format, storageKey: key, jobId, sourceFileId, uploadedAt: new Date() };
    const [row] = await db.insert(file).values(values).onConflictDoUpdate({ target: file.id, set: { size: values.size, checksum: values.checksum, uploadedAt: values.uploadedAt } }).returning(REF_COLUMNS);
    return row;
  };
  return {
    async zip(name, files) {
      const rows = files.length ? await db.select().from(file).where(inArray(file.id, files.map((f) => f.id))) : [];
      const byId = new Map(rows.map((r) => [r.id, r]));
      const entries = files.flatMap((f) => (byId.has(f.id) ? [byId.get(f.id)!] : []));
      const { id, key } = nextKey();
      return save(id, key, name, "application/zip", "zip", await putZip(store, key, entries), files[0]?.id ?? null);
    },
    async copyAs(ref, filename) {
      const [src] = await db.select().from(file).where(eq(file.id, ref.id));
      const { id, key } = nextKey();
      return save(id, key, filename, src.mime, src.format, await store.put(key, await store.get(src.storageKey)), src.id);
    },
    byIds: (ids) => filesByIds(db, userId, ids),
    async uploadedSince(since) {
      const rows = await db
        .select(REF_COLUMNS)
        .from(file)
        .where(and(eq(file.userId, userId), eq(file.status, "UPLOADED"), isNull(file.jobId), since ? gt(file.uploadedAt, since) : undefined))
        .orderBy(asc(file.uploadedAt))
        .limit(1000);
      return rows;
    },
  };
}
