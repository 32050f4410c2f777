/**
 * Uploading a Blob (a browser File, Bun.file(path), or Node's fs.openAsBlob(path)) the way the
 * API wants: presign, then one PUT or parallel part PUTs, then confirm. Blob slices are read
 * lazily, so a multi-GB file never sits in memory.
 *
 * Resume: the server has no call that lists the parts it holds, so the client reports the
 * multipart upload's state (ids, part size, the parts sent with their ETags) through `onState`
 * after every part; whoever persists it can pass it back as `resume` to send only the missing
 * parts of the same bytes.
 */
import type { ConfirmResult, MultipartCompleted, PartReceipt, PresignUploadBody, PresignUploadResult, SignedUrl } from "../schemas/file";
import { ApiError } from "./errors";
import type { Transport } from "./transport";

/** Everything needed to finish an interrupted multipart upload; plain JSON, safe to persist. */
export interface MultipartState {
  fileId: string;
  uploadId: string;
  partSize: number;
  partCount: number;
  /** Size of the whole file, to refuse resuming with other bytes. */
  size: number;
  filename: string;
  /** Parts the server holds, with the ETag multipart/complete needs. */
  parts: PartReceipt[];
}

export interface UploadOptions {
  filename: string;
  mime: string;
  /** sha256 hex; the server checks it at confirm. */
  checksum?: string;
  /** Called with bytes sent so far (parts sent before a resume included) and the total. */
  onProgress?: (sent: number, total: number) => void;
  /** Parts in flight at once for multipart uploads (default 4). */
  concurrency?: number;
  jobType?: string;
  createJob?: boolean;
  params?: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * Multipart only: called once the upload starts and after every part with a fresh copy of its
   * state. When given, a failed or aborted upload is left open on the server so it can resume.
   */
  onState?: (state: MultipartState) => void;
  /** The state of an interrupted multipart upload of the same bytes: only its missing parts are sent. */
  resume?: MultipartState;
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
  const res = await t.fetchOk(url, init);
  if (onBytes && !streamed) onBytes(blob.size);
  return res;
}

const copy = (s: MultipartState): MultipartState => ({ ...s, parts: s.parts.map((p) => ({ ...p })) });

const partBytes = (s: MultipartState, n: number) => Math.min(n * s.partSize, s.size) - (n - 1) * s.partSize;

export async function uploadBlob(t: Transport, blob: Blob, opts: UploadOptions): Promise<ConfirmResult> {
  const total = blob.size;
  let sent = opts.resume ? opts.resume.parts.reduce((n, p) => n + partBytes(opts.resume!, p.partNumber), 0) : 0;
  const onBytes = opts.onProgress
    ? (n: number) => {
        sent += n;
        opts.onProgress!(sent, total);
      }
    : null;
  if (opts.resume) {
    if (opts.resume.size !== total) throw new ApiError(0, "VALIDATION_ERROR", `the upload to resume is ${opts.resume.size} bytes, this file is ${total}`, null);
    await uploadParts(t, blob, copy(opts.resume), opts, onBytes);
    return t.call<ConfirmResult>("POST", "/api/files/confirm", { fileId: opts.resume.fileId });
  }
  const body: PresignUploadBody = { filename: opts.filename, mime: opts.mime, size: total, checksum: opts.checksum, jobType: opts.jobType, createJob: opts.createJob, params: opts.params };
  const started = await t.call<PresignUploadResult>("POST", "/api/files/presign-upload", body);
  if (started.multipart) {
    const state: MultipartState = { fileId: started.fileId, uploadId: started.uploadId, partSize: started.partSize, partCount: started.partCount, size: total, filename: opts.filename, parts: [] };
    opts.onState?.(copy(state));
    await uploadParts(t, blob, state, opts, onBytes);
  } else {
    await putBytes(t, started.uploadUrl, blob, onBytes, opts.signal);
  }
  return t.call<ConfirmResult>("POST", "/api/files/confirm", { fileId: started.fileId });
}

/** Sends the parts `state` does not hold yet, then completes the upload. */
async function uploadParts(t: Transport, blob: Blob, state: MultipartState, opts: UploadOptions, onBytes: ((n: number) => void) | null): Promise<void> {
  const { fileId, uploadId } = state;
  const held = new Set(state.parts.map((p) => p.partNumber));
  const missing = Array.from({ length: state.partCount }, (_, i) => i + 1).filter((n) => !held.has(n));
  /** The next missing part with its URL already on the way, or null when every part is taken. */
  const claim = () => {
    const partNumber = opts.signal?.aborted ? undefined : missing.shift();
    if (partNumber === undefined) return null;
    const url = t.call<SignedUrl>("POST", "/api/files/multipart/part", { fileId, uploadId, partNumber }).then((r) => r.url);
    url.catch(() => {}); // awaited below; this only keeps an early failure from counting as unhandled
    return { partNumber, url };
  };
  // Each worker asks for its next part's URL while the current part uploads: one round trip
  // less per part, which on a distant server is most of a small part's time.
  const worker = async () => {
    for (let part = claim(); part; ) {
      const url = await part.url;
      const following = claim();
      const slice = blob.slice((part.partNumber - 1) * state.partSize, Math.min(part.partNumber * state.partSize, blob.size));
      const res = await putBytes(t, url, slice, onBytes, opts.signal);
      state.parts.push({ partNumber: part.partNumber, etag: res.headers.get("etag") ?? "" });
      opts.onState?.(copy(state));
      part = following;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 4, missing.length)) }, worker));
    opts.signal?.throwIfAborted();
  } catch (err) {
    // Without a caller keeping the state nobody can resume: free the server's parts now.
    if (!opts.onState && !opts.resume) await t.call("POST", "/api/files/multipart/abort", { fileId, uploadId }).catch(() => {});
    throw err;
  }
  const parts = [...state.parts].sort((a, b) => a.partNumber - b.partNumber);
  await t.call<MultipartCompleted>("POST", "/api/files/multipart/complete", { fileId, uploadId, parts });
}
