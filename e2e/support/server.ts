/**
 * The server's answer for the same work, through the API with the official client: upload the
 * inputs, POST /api/tools/{slug}, download every output.
 */
import type { VektorClient } from "@vektor/shared/client";
import type { Download, FileSpec } from "./web";

interface Job {
  jobId: string;
  status: string;
  errorCode: string | null;
  error: string | null;
  outputs: { fileId: string; filename: string; mime: string; size: number }[];
}

export async function runOnServer(client: VektorClient, slug: string, files: FileSpec[], params: Record<string, unknown>): Promise<Download[]> {
  const fileIds: string[] = [];
  for (const f of files) fileIds.push((await client.files.upload(new Blob([f.bytes as Uint8Array<ArrayBuffer>]), { filename: f.name, mime: f.mime })).fileId);
  const job = await client.t.call<Job>("POST", `/api/tools/${slug}`, { fileIds, params });
  if (job.status !== "succeeded") throw new Error(`${slug} on the server: ${job.status} ${job.errorCode ?? ""} ${job.error ?? ""}`);
  const out: Download[] = [];
  for (const o of job.outputs) {
    const res = await client.files.download(o.fileId);
    if (!res.ok) throw new Error(`download of ${o.filename}: HTTP ${res.status}`);
    out.push({ name: o.filename, bytes: new Uint8Array(await res.arrayBuffer()) });
  }
  return out;
}
