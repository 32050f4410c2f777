/**
 * The statement that records a tool job's success where its kind's hook writes nothing for it
 * (API calls, batch items): the job ends succeeded if this claim still owns it (settle.ts), and
 * only then its output files' rows are inserted and its inputs point at its first output. Every
 * such tool call runs it, so its SQL is built once per database; its values go as parameters.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { file, job } from "../db/schema";
import type { JobRow } from "../queue/kinds";
import { perDatabase } from "../db/per-database";

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

/** Ends `row` succeeded with `stored` as its outputs; the ended row, or null when this claim no longer owns the job (nothing written). */
export async function recordSuccess(db: Db, row: JobRow, stored: StoredFile[]): Promise<JobRow | null> {
  const rows = stored.map((s) => Object.fromEntries(COLUMNS.map(([key, c]) => [c.name, s[key as keyof StoredFile]])));
  const [ended] = await statement(db).execute({
    id: row.id,
    attempts: row.attempts,
    outputIds: JSON.stringify(stored.map((s) => s.id)),
    finishedAt: new Date().toISOString(),
    rows: JSON.stringify(rows),
    inputIds: JSON.stringify(row.inputFileIds),
    first: stored[0].id,
  });
  return ended ?? null;
}

const statement = perDatabase(build);

function build(db: Db) {
  const p = sql.placeholder;
  const done = db.$with("done").as(
    db
      .update(job)
      .set({ status: "succeeded", progress: 100, outputFileIds: sql`${p("outputIds")}::jsonb`, errorCode: null, errorMessage: null, finishedAt: sql`${p("finishedAt")}::timestamptz`, leaseUntil: null })
      .where(and(eq(job.id, p("id")), eq(job.status, "running"), eq(job.attempts, p("attempts"))))
      .returning(),
  );
  const owned = sql`exists (select from ${done})`;
  const names = sql.raw(COLUMNS.map(([, c]) => `"${c.name}"`).join(", "));
  const types = sql.raw(COLUMNS.map(([, c]) => `"${c.name}" ${c.getSQLType()}`).join(", "));
  const outputs = db.$with("outputs", {}).as(sql`insert into ${file} (${names}) select o.* from jsonb_to_recordset(${p("rows")}::jsonb) as o(${types}) where ${owned}`);
  // `= any(array(...))`, not `in (select ...)`: Postgres planned the IN as a hash join over the
  // whole file table, a scan of every file on every tool call (call-plans.test.ts).
  const inputs = db.$with("inputs").as(
    db
      .update(file)
      .set({ outFileId: sql`${p("first")}::text` })
      .where(and(sql`${file.id} = any(array(select jsonb_array_elements_text(${p("inputIds")}::jsonb)))`, owned)),
  );
  return db.with(done, outputs, inputs).select().from(done).prepare("tool_succeeded");
}
