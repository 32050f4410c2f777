/** A file row as the API shows it. */
import type { FileRecord, FileSource } from "@vektor/shared/schemas/file";
import { eq, sql } from "drizzle-orm";
import { alias, type PgSelect } from "drizzle-orm/pg-core";
import { file, job } from "../../db/schema";

export type FileRow = typeof file.$inferSelect;

/** The file an output was made from, joined by the list and the detail for its name. */
const inputFile = alias(file, "input_file");

/** What an output's source is read from: the job that wrote it and the file it was made from. */
export const SOURCE_COLUMNS = {
  sourceFileId: file.sourceFileId,
  sourceKind: job.kind,
  sourceType: job.type,
  sourceBatchId: job.batchId,
  sourceRunId: sql<string | null>`${job.data}->>'runId'`,
  sourceFilename: inputFile.filename,
};
interface SourceColumns {
  sourceFileId: string | null;
  sourceKind: string | null;
  sourceType: string | null;
  sourceBatchId: string | null;
  sourceRunId: string | null;
  sourceFilename: string | null;
}

/** Left-joins what SOURCE_COLUMNS reads (both joins by primary key; both other tables the same owner's). */
export function withSource<T extends PgSelect>(query: T): T {
  // The selection is explicit (SOURCE_COLUMNS), so the joins change no type the caller reads but nullability, which FileViewRow declares.
  return query.leftJoin(job, eq(job.id, file.jobId)).leftJoin(inputFile, eq(inputFile.id, file.sourceFileId)) as unknown as T;
}

/** The columns fileView reads: lists select only these (each column of each row costs decoding). */
export const FILE_VIEW_COLUMNS = {
  id: file.id,
  filename: file.filename,
  mime: file.mime,
  size: file.size,
  checksum: file.checksum,
  status: file.status,
  format: file.format,
  createdAt: file.createdAt,
  outFileId: file.outFileId,
  jobId: file.jobId,
  ...SOURCE_COLUMNS,
};
/** A row as fileView takes it: the source columns are absent where no join was made (an upload just confirmed). */
export type FileViewRow = Pick<FileRow, "id" | "filename" | "mime" | "size" | "checksum" | "status" | "format" | "createdAt" | "outFileId" | "jobId"> & Partial<SourceColumns>;

export function fileView(row: FileViewRow, retention: { uploadHours: number; outputHours: number }): FileRecord {
  const hours = row.jobId ? retention.outputHours : retention.uploadHours;
  const view: FileRecord = {
    fileId: row.id,
    filename: row.filename,
    mime: row.mime,
    size: row.size,
    checksum: row.status === "UPLOADED" ? row.checksum : null,
    status: row.status as FileRecord["status"],
    format: row.format,
    createdAt: row.createdAt.toISOString(),
    expiresAt: new Date(row.createdAt.getTime() + hours * 3_600_000).toISOString(),
  };
  if (row.outFileId) view.outFileId = row.outFileId;
  if (row.jobId) {
    view.jobId = row.jobId;
    view.source = sourceOf(row, row.jobId);
  }
  return view;
}

function sourceOf(row: FileViewRow, jobId: string): FileSource {
  const source: FileSource = {
    jobId,
    tool: row.sourceKind === "tool.run" ? (row.sourceType ?? null) : null,
    inputFileId: row.sourceFileId ?? null,
    inputFilename: row.sourceFilename ?? null,
  };
  if (row.sourceBatchId) source.batchId = row.sourceBatchId;
  if (row.sourceRunId) source.runId = row.sourceRunId;
  return source;
}

/** A file name safe to store and to put in a header: no paths, no control characters. */
export function safeFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 255);
  return clean === "" || clean === "." || clean === ".." ? "file" : clean;
}

/** Content-Disposition with an ASCII fallback and the RFC 5987 UTF-8 form. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
