/** Running a tool (waits up to TOOL_WAIT_MS) and the caller's tool jobs: create, read, list, cancel. */
import { ListQuery } from "@vektor/shared/schemas/file";
import { CreateJobBody, Job, JobPage, RunToolBody } from "@vektor/shared/schemas/job";
import { isTerminalJob } from "@vektor/shared/schemas/vocab";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { jsonBody } from "../../http/core";
import { authMacro, routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import { parseLimit } from "../../http/query";
import type { Services } from "../../services";
import type { Idempotency } from "./idempotency";
import type { ToolRunService } from "./service";
import type { JobTrace } from "../../lib/job-trace";
import { requestStartOf } from "../../http/core";

const JobIdParam = Type.Object({ jobId: Type.String({ maxLength: 100 }) });

/** How long POST /api/tools/{slug} waits before answering 202 with the running job. */
export const TOOL_WAIT_MS = 60_000;

export function toolRunsModule(s: Pick<Services, "callers" | "trace">, jobs: ToolRunService, idem: Idempotency, opts: { waitMs?: number } = {}) {
  const { doc, docJson } = routeDocs();
  const waitMs = opts.waitMs ?? TOOL_WAIT_MS;
  return new Elysia()
    .use(jsonBody)
    .use(authMacro(s.callers))
    .post(
      "/api/tools/:slug",
      async ({ caller, request, params, body, set }) => {
        const handlerAt = s.trace ? performance.now() : 0;
        const key = request.headers.get("idempotency-key");
        let created = false;
        const create = async () => {
          created = true;
          return (await jobs.create(caller.id, { type: params.slug, fileIds: body.fileIds, params: body.params })).jobId;
        };
        const jobId = key ? await idem.once(caller.id, `tools:${params.slug}`, key, body, create) : await create();
        if (s.trace) traceRequest(s.trace, jobId, requestStartOf(request) ?? handlerAt, handlerAt);
        // A repeated Idempotency-Key names a job that may have ended long ago: read at once.
        const view = await jobs.waitFor(caller.id, jobId, waitMs, created);
        if (!isTerminalJob(view.status)) set.status = 202;
        if (s.trace) {
          s.trace.mark(jobId, "answer");
          set.headers["server-timing"] = s.trace.take(jobId);
        }
        return ok(view);
      },
      {
        params: Type.Object({ slug: Type.String({ maxLength: 100 }) }),
        ...docJson(RunToolBody, {
          summary: "Run a tool on uploaded files",
          description:
            "Creates a job and waits up to 60 s: the finished job (status succeeded or failed, with `outputs` and `errorCode`) answers 200; a longer one answers 202 with the running job, to be polled at GET /api/jobs/{jobId}. With `Idempotency-Key`, the same key, user and body within 24 h return the same job without running again; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED. Params are checked against the tool's schema before any work (400).",
          tags: ["Tools"],
          auth: "api",
          errors: ["NOT_FOUND", "INVALID_STATE", "IDEMPOTENCY_KEY_REUSED", "FEATURE_DISABLED", "LIMIT_EXCEEDED"],
          data: Job,
        }),
      },
    )
    .post(
      "/api/files",
      async ({ caller, body }) => ok(await jobs.create(caller.id, body)),
      docJson(CreateJobBody, { summary: "Create a job (queued; poll GET /api/jobs/{jobId})", tags: ["Jobs"], auth: "api", errors: ["NOT_FOUND", "INVALID_STATE", "FEATURE_DISABLED", "LIMIT_EXCEEDED"], data: Job }),
    )
    .get("/api/jobs", async ({ caller, query }) => ok(await jobs.list(caller.id, parseLimit(query.limit, 50, 200), query.cursor)), {
      query: ListQuery,
      ...doc({
        summary: "The caller's tool jobs, newest first",
        description:
          "Every tool job of the caller, each as GET /api/jobs/{jobId} shows it: those of POST /api/tools/{slug}, POST /api/files and createJob uploads, and also batch items (`batchId` set) and the tool jobs of workflow steps (`runId` set). Another user's jobs never appear. An ended job of an API call or an upload-and-run stays JOB_HISTORY_DAYS (30 by default), then the retention sweep deletes it; batch items and steps' jobs stay with their batch or run.",
        tags: ["Jobs"],
        auth: "api",
        data: JobPage,
      }),
    })
    .get("/api/jobs/:jobId", async ({ caller, params }) => ok(await jobs.get(caller.id, params.jobId)), {
      params: JobIdParam,
      ...doc({ summary: "Job status and output", tags: ["Jobs"], auth: "api", errors: ["NOT_FOUND"], data: Job }),
    })
    .post("/api/jobs/:jobId/cancel", async ({ caller, params }) => ok(await jobs.cancel(caller.id, params.jobId)), {
      params: JobIdParam,
      ...doc({
        summary: "Cancel a job",
        description:
          "A queued job ends `cancelled` at once and never runs. A running job is asked to stop: the answer still says `running` with `cancelRequested: true`, and the job ends `cancelled` when its worker next renews its lease (every third of JOB_LEASE_MS, 10 s by default; at once when the process that answers runs it); poll GET /api/jobs/{jobId}. A job that already ended (succeeded, failed, cancelled): 409 INVALID_STATE. A batch item or a workflow step's job is stopped with its batch or run only (POST /api/batch/{id}/cancel, POST /api/workflows/runs/{runId}/cancel), so cancelling one here is 409 INVALID_STATE naming them. Unknown ids and other users' jobs: 404 NOT_FOUND.",
        tags: ["Jobs"],
        auth: "api",
        errors: ["NOT_FOUND", "INVALID_STATE"],
        data: Job,
      }),
    })
    .get("/api/files/jobs-latest", async ({ caller, query }) => ok(await jobs.latestForFile(caller.id, query.fileId)), {
      query: Type.Object({ fileId: Type.String({ minLength: 1, maxLength: 100 }) }),
      ...doc({ summary: "The latest job that took this file as input", tags: ["Jobs"], auth: "api", errors: ["NOT_FOUND"], data: Job }),
    });
}

/** The request's own steps, marked once its job id is known (the insert ended just now). */
function traceRequest(trace: JobTrace, jobId: string, requestAt: number, handlerAt: number): void {
  trace.mark(jobId, "request", requestAt);
  trace.mark(jobId, "auth", handlerAt);
  trace.mark(jobId, "insert");
}
