/** Files (spec "Files and jobs", contract section 5): upload (with resume), import, list, download. */
import type {
  ConfirmResult,
  FileDeleted,
  FileList,
  FileRecord,
  ImportUrlBody,
  MultipartAborted,
  MultipartCompleteBody,
  MultipartCompleted,
  PresignUploadBody,
  PresignUploadResult,
  SignedUrl,
} from "../schemas/file";
import { openDownload } from "./download";
import { enc, qs, type PageQuery } from "./query";
import type { Transport } from "./transport";
import { uploadBlob, type MultipartState, type UploadOptions } from "./upload";

/** The file list's filters: `q` a part of the name, `checksum` the sha256 of bytes the caller may already have. */
export interface FileListQuery extends PageQuery {
  q?: string;
  checksum?: string;
}

export function filesApi(t: Transport) {
  return {
    list: (q: FileListQuery = {}) => t.call<FileList>("GET", `/api/files${qs({ ...q })}`),
    get: (fileId: string) => t.call<FileRecord>("GET", `/api/files/${enc(fileId)}`),
    delete: (fileId: string) => t.call<FileDeleted>("DELETE", `/api/files/${enc(fileId)}`),
    confirm: (fileId: string) => t.call<ConfirmResult>("POST", "/api/files/confirm", { fileId }),
    /** Step 1 of an upload by hand; `upload` does all of it. Loose body so tests can send refusals. */
    presignUpload: <T = PresignUploadResult>(b: PresignUploadBody | Record<string, unknown>) => t.call<T>("POST", "/api/files/presign-upload", b),
    presignDownload: (fileId: string) => t.call<SignedUrl>("POST", "/api/files/presign-download", { fileId }),
    importUrl: (b: ImportUrlBody) => t.call<FileRecord>("POST", "/api/files/import-url", b),
    multipart: {
      partUrl: (fileId: string, uploadId: string, partNumber: number) => t.call<SignedUrl>("POST", "/api/files/multipart/part", { fileId, uploadId, partNumber }),
      complete: (b: MultipartCompleteBody) => t.call<MultipartCompleted>("POST", "/api/files/multipart/complete", b),
      abort: (fileId: string, uploadId: string) => t.call<MultipartAborted>("POST", "/api/files/multipart/abort", { fileId, uploadId }),
    },
    /**
     * Upload a Blob (File, Bun.file(path), fs.openAsBlob(path)): presign, PUT(s), confirm.
     * Large files go in parts; see UploadOptions.onState / resume to continue an interrupted one.
     */
    upload: (blob: Blob, opts: UploadOptions) => uploadBlob(t, blob, opts),
    /** Continue an interrupted multipart upload from the state `onState` reported. */
    resume: (blob: Blob, state: MultipartState, opts: Omit<UploadOptions, "filename" | "resume"> & { filename?: string } = { mime: "" }) =>
      uploadBlob(t, blob, { ...opts, filename: opts.filename ?? state.filename, resume: state }),
    /** The raw download Response (streamed, not checked); `range` as "bytes=0-99". */
    download: (fileId: string, opts: { range?: string; signal?: AbortSignal } = {}) =>
      t.fetch(`/api/files/download/${enc(fileId)}`, { headers: opts.range ? { range: opts.range } : {}, signal: opts.signal }),
    /** The file as a stream with its name and size; a refusal is an ApiError. */
    open: (fileId: string, opts: { range?: string; signal?: AbortSignal } = {}) => openDownload(t, `/api/files/download/${enc(fileId)}`, opts),
  };
}
