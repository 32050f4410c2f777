/** Which of the caller's stored files may stand in for bytes about to be uploaded (pure; see files.ts). */
import type { FileRecord } from "@vektor/shared/schemas/file";

/** Reuse a stored file only if it stays long enough for the run that takes it (retention deletes it at expiresAt). */
export const REUSE_MARGIN_MS = 30 * 60_000;

/**
 * Of the caller's files with the same bytes (GET /api/files?checksum=), the one to run on instead
 * of uploading again: ready, under the same name (outputs are named after their input, so a copy
 * under another name would name them wrongly), not about to expire; the one kept longest. Null:
 * upload.
 */
export function pickReusable(candidates: readonly FileRecord[], filename: string, now: number): FileRecord | null {
  const usable = candidates.filter((f) => f.status === "UPLOADED" && f.filename === filename && Date.parse(f.expiresAt) - now > REUSE_MARGIN_MS);
  return usable.sort((a, b) => Date.parse(b.expiresAt) - Date.parse(a.expiresAt))[0] ?? null;
}
