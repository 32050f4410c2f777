/** A job row as the API shows it. */
import type { Job } from "@vektor/shared/schemas/job";
import type { OutputFile } from "../../queue/ends";
import type { JobRow } from "../../queue/kinds";

/** The API's Job, from its schema. */
export type JobView = Job;

export function jobView(row: JobRow, outputs: OutputFile[]): JobView {
  const byId = new Map(outputs.map((f) => [f.id, f]));
  return {
    jobId: row.id,
    type: row.type,
    status: row.status,
    fileIds: row.inputFileIds,
    params: row.params,
    progress: row.progress,
    outputs: row.outputFileIds.flatMap((id) => {
      const f = byId.get(id);
      return f ? [{ fileId: f.id, filename: f.filename, mime: f.mime, size: f.size }] : [];
    }),
    output: row.status === "succeeded" ? { fileIds: row.outputFileIds } : null,
    errorCode: row.errorCode,
    error: row.errorMessage,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    batchId: row.batchId,
    runId: runOf(row),
    cancelRequested: row.cancelRequestedAt !== null,
  };
}

/** The workflow run whose step queued this tool job (engine.ts puts it in the job's data), or null. */
export function runOf(row: JobRow): string | null {
  const runId = (row.data as { runId?: unknown } | null)?.runId;
  return typeof runId === "string" ? runId : null;
}
