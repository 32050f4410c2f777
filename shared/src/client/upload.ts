/**
 * Uploading a Blob (a browser File, or Bun.file(path) on a server) the way the API wants:
 * presign, then one PUT or parallel part PUTs, then confirm. Blob slices are read lazily, so a
 * multi-GB file never sits in memory.
 */
import type { FileRecord, PresignUploadResult } from "../schemas/file";
import { toApiError } from "./errors";
import type { Transport } from "./transport";

export interface UploadOptions {
  filename: string;
  mime: string;
  /** sha256 hex; the server checks it at confirm. */
  checksum?: string;
  /** Called with bytes sent so far and the total. */
  onProgress?: (sent: number, total: number) => void;
  /** Parts in flight at once for multipart uploads (default 4). */
  concurrency?: number;
  jobType?: string;
  createJob?: boolean;
  params?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** Streaming request bodies (and so byte-level progress) work outside browsers. */
const canStreamBodies = typeof (globalThis as { window?: unknown }).window === "undefined";

function counted(blob: Blob, onBytes: (n: number) => void): ReadableStream<Uint8Array> {
  return blob.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onBytes(chunk.byteLength);
        controller.enqueue(chunk);
      },
    }),
  );
}

async function putBytes(t: Transport, url: string, blob: Blob, onBytes: ((n: number) => void) | null, signal?: AbortSignal): Promise<Response> {
  const streamed = onBytes && canStreamBodies;
  const init: RequestInit & { duplex?: string } = {
    method: "PUT",
    body: streamed ? counted(blob, onBytes) : blob,
    headers: { "content-length": String(blob.size) },
    signal,
  };
  if (streamed) init.duplex = "half";
  const res = await t.fetch(url, init);
  if (!res.ok) throw await toApiError(res);
  if (onBytes && !streamed) onBytes(blob.size);
  return res;
}

export async function uploadBlob(t: Transport, blob: Blob, opts: UploadOptions): Promise<FileRecord & { jobId?: string }> {
  const total = blob.size;
  let sent = 0;
  const onBytes = opts.onProgress
    ? (n: number) => {
        sent += n;
        opts.onProgress!(sent, total);
      }
    : null;
  const started = await t.call<PresignUploadResult>("POST", "/api/files/presign-upload", {
    filename: opts.filename,
    mime: opts.mime,
    size: total,
    checksum: opts.checksum,
    jobType: opts.jobType,
    createJob: opts.createJob,
    params: opts.params,
  });
  if (started.multipart) await uploadParts(t, blob, started, opts, onBytes);
  else await putBytes(t, started.uploadUrl, blob, onBytes, opts.signal);
  return t.call("POST", "/api/files/confirm", { fileId: started.fileId });
}

async function uploadParts(
  t: Transport,
  blob: Blob,
  info: Extract<PresignUploadResult, { multipart: true }>,
  opts: UploadOptions,
  onBytes: ((n: number) => void) | null,
): Promise<void> {
  const parts: { partNumber: number; etag: string }[] = [];
  let next = 1;
  /** The next part number with its URL already on the way, or null when every part is taken. */
  const claim = () => {
    if (next > info.partCount) return null;
    const partNumber = next++;
    const url = t.call<{ url: string }>("POST", "/api/files/multipart/part", { fileId: info.fileId, uploadId: info.uploadId, partNumber }).then((r) => r.url);
    url.catch(() => {}); // awaited below; this only keeps an early failure from counting as unhandled
    return { partNumber, url };
  };
  // Each worker asks for its next part's URL while the current part uploads: one round trip
  // less per part, which on a distant server is most of a small part's time.
  const worker = async () => {
    for (let part = claim(); part; ) {
      const url = await part.url;
      const following = claim();
      const slice = blob.slice((part.partNumber - 1) * info.partSize, Math.min(part.partNumber * info.partSize, blob.size));
      const res = await putBytes(t, url, slice, onBytes, opts.signal);
      parts.push({ partNumber: part.partNumber, etag: res.headers.get("etag") ?? "" });
      part = following;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 4, info.partCount) }, worker));
  } catch (err) {
    await t.call("POST", "/api/files/multipart/abort", { fileId: info.fileId, uploadId: info.uploadId }).catch(() => {});
    throw err;
  }
  parts.sort((a, b) => a.partNumber - b.partNumber);
  await t.call("POST", "/api/files/multipart/complete", { fileId: info.fileId, uploadId: info.uploadId, parts });
}
