/** File, upload and import models (spec "Files and jobs", contract section 5). */
import { Type, type Static } from "@sinclair/typebox";
import { Page } from "./envelope";
import { FileStatus } from "./vocab";

/** Where an output came from: the job that wrote it and, when cheaply known, its batch or workflow run. */
export const FileSource = Type.Object(
  {
    jobId: Type.String({ description: "the job that wrote this file" }),
    tool: Type.Union([Type.String(), Type.Null()], { description: "the tool slug the job ran (e.g. pdf.compress); null for a workflow's own steps (zip, rename) or a job no longer kept" }),
    inputFileId: Type.Union([Type.String(), Type.Null()], { description: "the (first) file it was made from" }),
    inputFilename: Type.Union([Type.String(), Type.Null()], { description: "that file's name; null once it is deleted" }),
    batchId: Type.Optional(Type.String({ description: "the batch whose item wrote it" })),
    runId: Type.Optional(Type.String({ description: "the workflow run whose step wrote it" })),
  },
  { description: "Outputs only: which job produced this file" },
);
export type FileSource = Static<typeof FileSource>;

export const FileRecord = Type.Object({
  fileId: Type.String(),
  filename: Type.String(),
  mime: Type.String(),
  size: Type.Integer(),
  checksum: Type.Union([Type.String(), Type.Null()], { description: "sha256 hex" }),
  status: FileStatus,
  format: Type.Union([Type.String(), Type.Null()], { description: "format id found by the signature check" }),
  createdAt: Type.String({ format: "date-time" }),
  expiresAt: Type.String({ format: "date-time", description: "when retention deletes it" }),
  outFileId: Type.Optional(Type.String({ description: "the latest output a job made from this file" })),
  jobId: Type.Optional(Type.String({ description: "the job that produced this file (outputs only)" })),
  source: Type.Optional(FileSource),
});
export type FileRecord = Static<typeof FileRecord>;

const JobRequest = {
  jobType: Type.Optional(Type.String({ minLength: 3, maxLength: 100 })),
  createJob: Type.Optional(Type.Boolean()),
  params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
};

export const PresignUploadBody = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: 255 }),
    mime: Type.String({ minLength: 1, maxLength: 255 }),
    size: Type.Integer({ minimum: 0 }),
    checksum: Type.Optional(Type.String({ pattern: "^[0-9a-fA-F]{64}$", description: "sha256 hex of the bytes" })),
    ...JobRequest,
  },
  { additionalProperties: false },
);
export type PresignUploadBody = Static<typeof PresignUploadBody>;

export const PresignUploadResult = Type.Union([
  Type.Object({ fileId: Type.String(), multipart: Type.Literal(false), uploadUrl: Type.String(), expiresAt: Type.String({ format: "date-time" }) }),
  Type.Object({
    fileId: Type.String(),
    multipart: Type.Literal(true),
    uploadId: Type.String(),
    partSize: Type.Integer(),
    partCount: Type.Integer(),
  }),
]);
export type PresignUploadResult = Static<typeof PresignUploadResult>;

export const FileIdBody = Type.Object({ fileId: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const ConfirmResult = Type.Composite([FileRecord, Type.Object({ jobId: Type.Optional(Type.String()) })]);

export const MultipartPartBody = Type.Object(
  { fileId: Type.String({ minLength: 1, maxLength: 100 }), uploadId: Type.String({ minLength: 1, maxLength: 200 }), partNumber: Type.Integer({ minimum: 1, maximum: 10_000 }) },
  { additionalProperties: false },
);
export const MultipartCompleteBody = Type.Object(
  {
    fileId: Type.String({ minLength: 1, maxLength: 100 }),
    uploadId: Type.String({ minLength: 1, maxLength: 200 }),
    parts: Type.Array(Type.Object({ partNumber: Type.Integer({ minimum: 1, maximum: 10_000 }), etag: Type.String({ minLength: 1, maxLength: 200 }) }), { minItems: 1, maxItems: 10_000 }),
  },
  { additionalProperties: false },
);
export const MultipartAbortBody = Type.Object(
  { fileId: Type.String({ minLength: 1, maxLength: 100 }), uploadId: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const SignedUrl = Type.Object({ url: Type.String(), expiresAt: Type.String({ format: "date-time" }) });

export const ImportUrlBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 4096 }),
    filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    mime: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    ...JobRequest,
  },
  { additionalProperties: false },
);
export type ImportUrlBody = Static<typeof ImportUrlBody>;

export const FileList = Page(FileRecord);

export const ListQuery = Type.Object({
  limit: Type.Optional(Type.String({ pattern: "^[0-9]{1,4}$", description: "1..200, default 50" })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: "nextCursor of the previous page" })),
  q: Type.Optional(Type.String({ maxLength: 255, description: "only files whose name contains this text (case-insensitive)" })),
  checksum: Type.Optional(
    Type.String({ pattern: "^[0-9a-fA-F]{64}$", description: "only UPLOADED files with these bytes (sha256 hex): a client asks before uploading bytes the caller already has" }),
  ),
});

export type ConfirmResult = Static<typeof ConfirmResult>;
export type SignedUrl = Static<typeof SignedUrl>;
export type FileList = Static<typeof FileList>;
export type MultipartCompleteBody = Static<typeof MultipartCompleteBody>;

/** A multipart part as multipart/complete takes it (and a part PUT answers). */
export const PartReceipt = Type.Object({ partNumber: Type.Integer(), etag: Type.String() });
export type PartReceipt = Static<typeof PartReceipt>;

/** The signed single-PUT target's answer. */
export const UploadReceipt = Type.Object({ fileId: Type.String(), size: Type.Integer() });
export type UploadReceipt = Static<typeof UploadReceipt>;

export const MultipartCompleted = Type.Object({ fileId: Type.String(), size: Type.Integer(), completed: Type.Boolean() });
export type MultipartCompleted = Static<typeof MultipartCompleted>;

export const MultipartAborted = Type.Object({ fileId: Type.String(), aborted: Type.Boolean() });
export type MultipartAborted = Static<typeof MultipartAborted>;

export const FileDeleted = Type.Object({ fileId: Type.String(), deleted: Type.Boolean() });
export type FileDeleted = Static<typeof FileDeleted>;
