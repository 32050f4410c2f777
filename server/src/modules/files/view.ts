/** A file row as the API shows it. */
import type { FileRecord } from "@vektor/shared/schemas/file";
import { file } from "../../db/schema";

export type FileRow = typeof file.$inferSelect;

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
};
export type FileViewRow = Pick<FileRow, keyof typeof FILE_VIEW_COLUMNS>;

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
  if (row.jobId) view.jobId = row.jobId;
  return view;
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
