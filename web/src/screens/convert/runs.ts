/**
 * One conversion on either engine, reported the same way: progress as a fraction with a
 * message, then the results to offer as downloads.
 */
import type { Job } from "@vektor/shared/schemas/job";
import { ToolError } from "@vektor/shared/tools/manifest";
import { client, downloadHref, errorMessage } from "../../api/client";
import { readFile, storeFile } from "../../api/files";
import type { ToolInfo } from "../../tools/catalog";
import { blobInput, releaseOutput, runOnDevice } from "../../tools/device";
import { outputBlob } from "../../tools/output-blob";

export interface Result {
  name: string;
  size: number;
  mime: string;
  /** An object URL (this device) or the server's download address. */
  href: string;
  /** Object URLs to revoke when the result is replaced. */
  local: boolean;
  /** Reads the result's bytes (for previews and Download all). */
  read: () => Promise<Blob>;
  /** Lets this device's result go when it leaves the list (a File on disk is deleted then). */
  release?: () => void;
  /** The input it was made from, when the tool ran once per file. */
  source?: string;
}

export interface RunInput {
  tool: ToolInfo;
  files: File[];
  params: Record<string, unknown>;
  signal: AbortSignal;
  onProgress: (fraction: number, message?: string) => void;
}

/** A failed run: a tool error code (or the API's) with its message. */
export class RunFailed extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function runDevice({ tool, files, params, signal, onProgress }: RunInput): Promise<Result[]> {
  const inputs = await Promise.all(files.map((f) => blobInput(f.name, f)));
  try {
    const outputs = await runOnDevice(tool.slug, inputs, params, { signal, timeoutMs: tool.timeoutMs, onProgress });
    return outputs.map((o) => {
      // A File on disk (ToolOutput.blob) is offered as it is: never read into the page's memory.
      const blob = outputBlob(o);
      return { name: o.name, size: blob.size, mime: o.mime, href: URL.createObjectURL(blob), local: true, read: async () => blob, release: () => releaseOutput(o) };
    });
  } catch (err) {
    const error = err instanceof ToolError ? err : new ToolError("TOOL_FAILED", String((err as Error)?.message ?? err));
    throw new RunFailed(error.code, error.message);
  }
}

/**
 * The job on the server, created queued so its id is known at once, then followed to its end.
 * Cancel (the signal) cancels the job on the server too, so it stops there instead of running on
 * unwatched: a queued job never runs, a running one stops at its worker's next lease renewal.
 */
async function serverJob(slug: string, fileIds: string[], params: Record<string, unknown>, signal: AbortSignal, onUpdate: (job: Job) => void): Promise<Job> {
  const created = await client.jobs.create({ type: slug, fileIds, params });
  try {
    onUpdate(created);
    return await client.jobs.wait(created, { signal, onUpdate });
  } catch (err) {
    if (signal.aborted) await client.jobs.cancel(created.jobId).catch(() => {});
    throw err;
  }
}

/**
 * Upload (the first half of the bar), run the tool and wait for its job (the second half). A file
 * the server already has (fetched from Files, sent by an earlier run, or the same bytes under the
 * same name) is not sent again.
 */
export async function runServer({ tool, files, params, signal, onProgress }: RunInput): Promise<Result[]> {
  try {
    const total = files.reduce((n, f) => n + f.size, 0) || 1;
    let before = 0;
    const fileIds: string[] = [];
    for (const file of files) {
      onProgress((before / total) * 0.5, `checking ${file.name}`);
      const stored = await storeFile(file, (sent) => onProgress(((before + sent) / total) * 0.5, `uploading ${file.name}`), signal);
      before += file.size;
      fileIds.push(stored.fileId);
      if (stored.reused) onProgress((before / total) * 0.5, `${file.name} is already on the server`);
    }
    onProgress(0.5, "running on the server");
    const job = await serverJob(tool.slug, fileIds, params, signal, (j) => onProgress(0.5 + j.progress / 200, `${j.status} on the server`));
    if (job.status !== "succeeded") throw new RunFailed(job.errorCode ?? job.status.toUpperCase(), job.error ?? `The job ${job.status}.`);
    return job.outputs.map((o) => ({ name: o.filename, size: o.size, mime: o.mime, href: downloadHref(o.fileId), local: false, read: () => readFile(o.fileId) }));
  } catch (err) {
    if (err instanceof RunFailed) throw err;
    if (signal.aborted) throw new RunFailed("CANCELLED", "The run was cancelled");
    throw new RunFailed((err as { code?: string }).code ?? "TOOL_FAILED", errorMessage(err));
  }
}
