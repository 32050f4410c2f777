/** Job and tool models (contract section 6). */
import { Type, type Static } from "@sinclair/typebox";
import { Page } from "./envelope";
import { JobStatus } from "./vocab";

export { JobStatus } from "./vocab";

export const JobOutput = Type.Object({ fileId: Type.String(), filename: Type.String(), mime: Type.String(), size: Type.Integer() });

export const Job = Type.Object({
  jobId: Type.String(),
  type: Type.String({ description: "tool slug" }),
  status: JobStatus,
  fileIds: Type.Array(Type.String()),
  params: Type.Record(Type.String(), Type.Unknown()),
  progress: Type.Integer({ minimum: 0, maximum: 100, description: "Percent done: written at most every 500 ms while the tool runs (a run shorter than that goes from 0 to 100), and 100 with the outcome" }),
  outputs: Type.Array(JobOutput),
  output: Type.Union([Type.Object({ fileIds: Type.Array(Type.String()) }), Type.Null()]),
  errorCode: Type.Union([Type.String(), Type.Null()], { description: "INPUT_INVALID, INPUT_EMPTY, INPUT_UNSUPPORTED, INPUT_TOO_LARGE, PARAMS_INVALID, TOOL_FAILED, TIMEOUT, CANCELLED, WORKER_CRASHED" }),
  error: Type.Union([Type.String(), Type.Null()]),
  attempts: Type.Integer(),
  createdAt: Type.String({ format: "date-time" }),
  startedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  finishedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  batchId: Type.Union([Type.String(), Type.Null()], { description: "the batch this job is an item of (cancel the batch, not the job)" }),
  runId: Type.Union([Type.String(), Type.Null()], { description: "the workflow run this job is a step's work of (cancel the run, not the job)" }),
  cancelRequested: Type.Boolean({ description: "a cancel was asked for while the job ran (POST /api/jobs/{jobId}/cancel, or its run's cancel): a job still running stops at its worker's next lease renewal and ends cancelled" }),
});

/** GET /api/jobs answer: a page of the caller's tool jobs, newest first. */
export const JobPage = Page(Job);

export const RunToolBody = Type.Object(
  { fileIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 }), params: Type.Optional(Type.Record(Type.String(), Type.Unknown())) },
  { additionalProperties: false },
);

export const CreateJobBody = Type.Object(
  {
    type: Type.String({ minLength: 3, maxLength: 100, description: "tool slug, e.g. pdf.compress" }),
    fileIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100 }),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

export const ToolIndexEntry = Type.Object({
  slug: Type.String(),
  family: Type.String(),
  title: Type.String(),
  accepts: Type.Array(Type.String()),
  produces: Type.Array(Type.String()),
});

export const ToolDetail = Type.Object({
  slug: Type.String(),
  family: Type.String(),
  title: Type.String(),
  description: Type.String(),
  io: Type.Object({ accepts: Type.Array(Type.String()), produces: Type.Array(Type.String()), minInputs: Type.Integer(), maxInputs: Type.Integer() }),
  params: Type.Unknown({ description: "JSON schema of the params, with defaults and limits" }),
  deterministic: Type.Boolean(),
  maxInputBytes: Type.Number({ description: "The largest input file this tool takes on this server (its own limit within TOOL_MAX_INPUT_MB); a larger one is refused with 422 LIMIT_EXCEEDED when the job is created" }),
  memoryPerInputByte: Type.Optional(
    Type.Number({
      minimum: 0,
      description: "The tool's measured peak memory per input byte beyond its engine's fixed size, when it runs on bytes in a browser's Web Worker (0: does not grow with the input); what a client with a memory budget checks before running a file itself. Absent: not measured",
    }),
  ),
});

export type JobOutput = Static<typeof JobOutput>;
export type Job = Static<typeof Job>;
export type JobPage = Static<typeof JobPage>;
export type RunToolBody = Static<typeof RunToolBody>;
export type CreateJobBody = Static<typeof CreateJobBody>;
export type ToolIndexEntry = Static<typeof ToolIndexEntry>;
export type ToolDetail = Static<typeof ToolDetail>;
