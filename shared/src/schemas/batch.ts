/** Batch models (spec "Batch", contract sections 3 and 6). */
import { Type, type Static } from "@sinclair/typebox";
import { Page } from "./envelope";
import { BatchItemStatus, BatchStatus } from "./vocab";

export { BatchStatus } from "./vocab";

/** A batch's name as a person gives it: trimmed by the server, then 1 to 200 characters with no control characters. */
export const BatchName = Type.String({ minLength: 1, maxLength: 200, description: "shown in the list; surrounding spaces are trimmed, blank or control characters refused (400)" });

export const RenameBatchBody = Type.Object({ name: BatchName }, { additionalProperties: false });
export type RenameBatchBody = Static<typeof RenameBatchBody>;

export const Batch = Type.Object({
  batchId: Type.String(),
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  engine: Type.String(),
  params: Type.Record(Type.String(), Type.Unknown()),
  credits: Type.Integer({ description: "charged at creation" }),
  refunded: Type.Integer({ description: "given back by cancel for items that never started" }),
  status: BatchStatus,
  total: Type.Integer(),
  done: Type.Integer({ description: "items that succeeded" }),
  failed: Type.Integer(),
  cancelled: Type.Integer(),
  running: Type.Integer(),
  queued: Type.Integer(),
  createdAt: Type.String({ format: "date-time" }),
});

export const BatchItem = Type.Object({
  fileId: Type.String(),
  filename: Type.Union([Type.String(), Type.Null()]),
  jobId: Type.String(),
  status: BatchItemStatus,
  errorCode: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  outFileId: Type.Union([Type.String(), Type.Null()]),
  outFileIds: Type.Array(Type.String()),
  outputs: Type.Array(Type.Object({ fileId: Type.String(), filename: Type.String(), size: Type.Integer() }), {
    description: "the item's output files that are still stored (retention may have removed some), in outFileIds order",
  }),
  attempts: Type.Integer(),
});

export const CreateBatchBody = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 100, description: "tool slug" }),
    fileIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 10_000 }),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    name: Type.Optional(BatchName),
    engine: Type.Optional(Type.String({ maxLength: 50, description: "server (the only engine that runs on the server)" })),
  },
  { additionalProperties: false },
);

export const EstimateBody = Type.Object({ fileCount: Type.Integer({ minimum: 0, maximum: 1_000_000 }) }, { additionalProperties: false });

export const Estimate = Type.Object({
  credits: Type.Integer(),
  baseCredits: Type.Integer(),
  perFileCredits: Type.Integer(),
  maxFiles: Type.Integer({ description: "for the caller's plan" }),
  withinLimit: Type.Boolean(),
});

export const BatchSettings = Type.Object({
  enabled: Type.Boolean(),
  engines: Type.Array(Type.String()),
  baseCredits: Type.Integer(),
  perFileCredits: Type.Integer(),
  maxFiles: Type.Object({ free: Type.Integer(), pro: Type.Integer() }),
  maxSizeMb: Type.Object({ free: Type.Integer(), pro: Type.Integer() }),
});

export const PresetBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.String({ minLength: 1, maxLength: 100 }),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    engine: Type.Optional(Type.String({ maxLength: 50 })),
  },
  { additionalProperties: false },
);

export const Preset = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  params: Type.Record(Type.String(), Type.Unknown()),
  engine: Type.String(),
  createdAt: Type.String({ format: "date-time" }),
});

/** The data of each `progress` event on the batch event stream. */
export const BatchProgress = Type.Object({ total: Type.Integer(), done: Type.Integer(), failed: Type.Integer(), status: BatchStatus });
export type BatchProgress = Static<typeof BatchProgress>;

export type Batch = Static<typeof Batch>;
export type BatchItem = Static<typeof BatchItem>;
export type CreateBatchBody = Static<typeof CreateBatchBody>;
export type Estimate = Static<typeof Estimate>;
export type BatchSettings = Static<typeof BatchSettings>;
export type PresetBody = Static<typeof PresetBody>;
export type Preset = Static<typeof Preset>;

/** POST /api/batch answer. */
export const BatchCreated = Type.Object({ batchId: Type.String(), credits: Type.Integer() });
export type BatchCreated = Static<typeof BatchCreated>;

/** GET /api/batch answer: a page of the caller's batches. */
export const BatchPage = Page(Batch);
export type BatchPage = Static<typeof BatchPage>;

/** GET /api/batch/{id} answer. */
export const BatchDetail = Type.Object({ batch: Batch, files: Type.Array(BatchItem) });
export type BatchDetail = Static<typeof BatchDetail>;

export const BatchCancelled = Type.Object({ batchId: Type.String(), cancelledItems: Type.Integer(), refundedCredits: Type.Integer(), status: Type.Literal("cancelled") });
export type BatchCancelled = Static<typeof BatchCancelled>;

export const BatchRetried = Type.Object({ batchId: Type.String(), retriedItems: Type.Integer(), credits: Type.Integer() });
export type BatchRetried = Static<typeof BatchRetried>;
