/**
 * The statement that records a tool job's success where its kind's hook writes nothing for it
 * (API calls, batch items): the job ends succeeded if this claim still owns it (settle.ts), and
 * only then its output files' rows are inserted and its inputs point at its first output. Every
 * such tool call runs it, so its SQL is built once (db/reusable.ts); its values go as parameters.
 */
import { and, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { file, job } from "../db/schema";
import type { JobRow } from "../queue/kinds";
import { inJsonList, reusable } from "../db/reusable";

/** The columns an output file's row is written with (the others keep their defaults). */
const OUTPUT_COLUMNS = {
  id: file.id,
  userId: file.userId,
  filename: file.filename,
  mime: file.mime,
  size: file.size,
  checksum: file.checksum,
  status: file.status,
  format: file.format,
  storageKey: file.storageKey,
  jobId: file.jobId,
  sourceFileId: file.sourceFileId,
  uploadedAt: file.uploadedAt,
};

export type StoredFile = Required<Pick<typeof file.$inferInsert, keyof typeof OUTPUT_COLUMNS>>;

const COLUMNS = Object.entries(OUTPUT_COLUMNS);

/** What a success sets besides its outputs and its moment. */
const ENDING = { status: "succeeded", progress: 100, errorCode: null, errorMessage: null, leaseUntil: null } as const;

/**
 * Ends `row` succeeded with `stored` as its outputs; the ended row, or null when this claim no
 * longer owns the job (nothing written). The statement answers only what it cannot know here:
 * answering every column cost about 0.2 ms of each tool call in PGlite.
 */
export async function recordSuccess(db: Db, row: JobRow, stored: StoredFile[]): Promise<JobRow | null> {
  const outputFileIds = stored.map((s) => s.id);
  const finishedAt = new Date();
  const [ended] = await succeeded(db, {
    id: row.id,
    attempts: row.attempts,
    outputIds: JSON.stringify(outputFileIds),
    finishedAt: finishedAt.toISOString(),
    ...outputValues(row, stored),
  });
  // The row as the update left it: only a cancel asked for meanwhile changes a running job's row
  // besides its lease and progress, which the ending sets (control.ts, runner.ts).
  return ended ? { ...columnsOf(row), ...ENDING, outputFileIds, finishedAt, cancelRequestedAt: ended.cancelRequestedAt } : null;
}

const JOB_KEYS = Object.keys(getTableColumns(job)) as (keyof JobRow)[];

/** The row's columns alone: a claimed job carries more (its inputs' rows, its early run). */
function columnsOf(row: JobRow): JobRow {
  return Object.fromEntries(JOB_KEYS.map((key) => [key, row[key]])) as JobRow;
}

/**
 * The output files' rows and the inputs' pointer at the first, as recordSuccess writes them, in
 * one statement: for a tool job whose kind's hook writes in the transaction that ends it (a
 * workflow step's), where settle.ts has ended the job already.
 */
export async function recordOutputs(tx: Db | Tx, row: JobRow, stored: StoredFile[]): Promise<void> {
  await outputsOnly(tx, outputValues(row, stored));
}

function outputValues(row: JobRow, stored: StoredFile[]) {
  const rows = stored.map((s) => Object.fromEntries(COLUMNS.map(([key, c]) => [c.name, s[key as keyof StoredFile]])));
  return { rows: JSON.stringify(rows), inputIds: JSON.stringify(row.inputFileIds), first: stored[0].id };
}

const p = sql.placeholder;

const succeeded = reusable((db) => {
  const done = db.$with("done").as(
    db
      .update(job)
      .set({ ...ENDING, outputFileIds: sql`${p("outputIds")}::jsonb`, finishedAt: sql`${p("finishedAt")}::timestamptz` })
      .where(and(eq(job.id, p("id")), eq(job.status, "running"), eq(job.attempts, p("attempts"))))
      .returning({ cancelRequestedAt: job.cancelRequestedAt }),
  );
  const owned = sql`exists (select from ${done})`;
  const inputs = db.$with("inputs").as(db.update(file).set(pointer).where(and(isInput, owned)));
  return db.with(done, outputsInsert(db, owned), inputs).select().from(done);
});

const outputsOnly = reusable((db) => db.with(outputsInsert(db, sql`true`)).update(file).set(pointer).where(isInput));

/** The output rows, from the `rows` JSON, if `when` holds. */
function outputsInsert(db: Db | Tx, when: SQL) {
  const names = sql.raw(COLUMNS.map(([, c]) => `"${c.name}"`).join(", "));
  const types = sql.raw(COLUMNS.map(([, c]) => `"${c.name}" ${c.getSQLType()}`).join(", "));
  return db.$with("outputs", {}).as(sql`insert into ${file} (${names}) select o.* from jsonb_to_recordset(${p("rows")}::jsonb) as o(${types}) where ${when}`);
}

const pointer = { outFileId: sql`${p("first")}::text` };
// By index, never a scan of every file on every tool call (call-plans.test.ts).
const isInput = inJsonList(file.id, "inputIds");
