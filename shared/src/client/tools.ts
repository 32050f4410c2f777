/**
 * Tools and jobs (contract section 6). Running a tool waits on the server up to its limit
 * (60 s by default); a longer run answers 202 with the running job, which `tools.run` then polls
 * until it ends, so a caller always gets the finished job.
 */
import type { CreateJobBody, Job, JobPage, ToolDetail, ToolIndexEntry } from "../schemas/job";
import { isTerminalJob } from "../schemas/vocab-lists";
import { ApiError } from "./errors";
import { enc, qs, type PageQuery } from "./query";
import type { Transport } from "./transport";

export interface WaitOptions {
  /** Give up (ApiError with the last state's job id in the message) after this long; default: no limit. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with each state seen while waiting (progress). */
  onUpdate?: (job: Job) => void;
}

export interface RunToolOptions extends WaitOptions {
  params?: Record<string, unknown>;
  /** Same key, user and body within 24 h: the first answer, without running again. */
  idempotencyKey?: string;
}

/** True when the job ended (succeeded, failed or cancelled). */
export const isFinished = (job: Job) => isTerminalJob(job.status);

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export function jobsApi(t: Transport) {
  const get = (jobId: string) => t.call<Job>("GET", `/api/jobs/${enc(jobId)}`);
  /** Polls the job until it ends (back-off 100 ms .. 2 s). */
  const wait = async (job: Job | string, opts: WaitOptions = {}): Promise<Job> => {
    let current = typeof job === "string" ? await get(job) : job;
    const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
    for (let delay = 100; !isFinished(current); delay = Math.min(delay * 2, 2000)) {
      if (Date.now() >= deadline) throw new ApiError(0, "INVALID_STATE", `job ${current.jobId} is still ${current.status} after ${opts.timeoutMs} ms`, null);
      await pause(Math.min(delay, deadline - Date.now()), opts.signal);
      current = await get(current.jobId);
      opts.onUpdate?.(current);
    }
    return current;
  };
  return {
    get,
    wait,
    /** Create a queued job (POST /api/files); poll it with `wait`, stop it with `cancel`. */
    create: (b: CreateJobBody) => t.call<Job>("POST", "/api/files", b),
    /** The caller's tool jobs, newest first (batch items and workflow steps' jobs included). */
    list: (q: PageQuery = {}) => t.call<JobPage>("GET", `/api/jobs${qs({ ...q })}`),
    /**
     * Cancel a job that belongs to no batch and no workflow run: a queued one ends cancelled at
     * once; a running one answers `running` with `cancelRequested` and ends cancelled at its
     * worker's next lease renewal (`wait` for it). An ended job is INVALID_STATE.
     */
    cancel: (jobId: string) => t.call<Job>("POST", `/api/jobs/${enc(jobId)}/cancel`, {}),
    /** The latest job that took this file as input. */
    latestForFile: (fileId: string) => t.call<Job>("GET", `/api/files/jobs-latest${qs({ fileId })}`),
    /** The finished job's output files (waits for it first). */
    outputs: async (jobId: string, opts: WaitOptions = {}) => (await wait(jobId, opts)).outputs,
  };
}

export function toolsApi(t: Transport, jobs: ReturnType<typeof jobsApi>) {
  return {
    /** The lightweight index of every tool (public). */
    index: () => t.call<ToolIndexEntry[]>("GET", "/api/config/tools-index"),
    /** Tools by slug with their params schema (public); no slugs: every tool. */
    lookup: (slugs?: string[]) => t.call<ToolDetail[]>("GET", `/api/tools/lookup${qs({ slugs: slugs?.join(",") })}`),
    /**
     * Run a tool on uploaded files and answer the finished job (succeeded, failed or cancelled:
     * a failed job is an answer, not an exception). A 202 is polled to the end.
     */
    run: async (slug: string, fileIds: string[], opts: RunToolOptions = {}): Promise<Job> => {
      const headers: Record<string, string> = opts.idempotencyKey ? { "idempotency-key": opts.idempotencyKey } : {};
      const { status, data } = await t.send<Job>("POST", `/api/tools/${enc(slug)}`, { fileIds, params: opts.params ?? {} }, headers, opts.signal);
      if (status !== 202 && isFinished(data)) return data;
      opts.onUpdate?.(data);
      return jobs.wait(data, opts);
    },
  };
}
