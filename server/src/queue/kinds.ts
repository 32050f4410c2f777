/**
 * Every kind of background work, as a typed union of `{ kind, data }` (immich's job names;
 * Windmill's queue): one queue table, one handler per kind (registry.ts), and a lane per kind
 * so a long tool run never delays a short control transition.
 */
import type { EarlyRun } from "../tools/early-run";
import type { file, job } from "../db/schema";

/** A row of the job table. */
export type JobRow = typeof job.$inferSelect;

/** What a tool run reads of each input file's row before it reads the file. */
export type InputFile = Pick<typeof file.$inferSelect, "id" | "status" | "filename" | "size" | "mime" | "storageKey">;

/**
 * A claimed job as the runner hands it over: a tool job with its input files' rows, read by the
 * claim itself; a tool call inserted claimed here may bring the run begun while it was inserted.
 */
export type ClaimedJob = JobRow & { inputFiles?: InputFile[]; early?: EarlyRun };

/** What each kind carries in `job.data`. */
export interface JobData {
  /** A tool over input files (the row's type, params and input_file_ids); a workflow's tool jobs name their step. */
  "tool.run": { runId?: string; stepId?: string };
  /** Execute one workflow step whose inputs are ready (attempt guards against a stale job). */
  "workflow.step": { runId: string; stepId: string; attempt: number };
  /** An approval that was not decided in time ends its run APPROVAL_TIMEOUT. */
  "approval.timeout": { runId: string; nodeId: string };
  /** The retention clean-up; each sweep queues the next one. */
  "retention.sweep": Record<string, never>;
  /** Queues the schedule triggers' fire times of one 5-minute window [from, from + 5 min); each dispatch queues the next. */
  "schedule.dispatch": { from?: string };
  /** Starts a schedule trigger's run for one fire time, exactly once. */
  "schedule.fire": { triggerId: string; fireAt: string };
  /** Starts a watch trigger's run for one confirmed upload, exactly once. */
  "watch.fire": { triggerId: string; fileId: string };
  /** One attempt of a run's outbound completion webhook (the delivery row holds the URL and body). */
  "notify.webhook": { deliveryId: string };
  /** One attempt of a run's completion e-mail to its owner. */
  "notify.email": { deliveryId: string };
}

export type JobKind = keyof JobData;
/** Every kind but tool.run: short jobs whose handler does the work (registry.ts). */
export type ControlKind = Exclude<JobKind, "tool.run">;
/**
 * tool: long WASM runs on the worker pool; control: short transitions, timeouts and sweeps;
 * outbound: calls to other servers (webhook deliveries, e-mail), which may hang until their
 * timeout, so a slow receiver never holds up a workflow transition.
 */
export type Lane = "tool" | "control" | "outbound";
export const LANE_KINDS: readonly Lane[] = ["tool", "control", "outbound"];
export const isLane = (s: string): s is Lane => (LANE_KINDS as readonly string[]).includes(s);

/** Which lane each kind runs in: data, checked at start-up against the handlers. */
export const LANES: Record<JobKind, Lane> = {
  "tool.run": "tool",
  "workflow.step": "control",
  "approval.timeout": "control",
  "retention.sweep": "control",
  "schedule.dispatch": "control",
  "schedule.fire": "control",
  "watch.fire": "control",
  "notify.webhook": "outbound",
  "notify.email": "outbound",
};

export const JOB_KINDS = Object.keys(LANES) as JobKind[];

/** How often a kind is tried and how long it waits between tries. */
export interface RetryPolicy {
  attempts: number;
  /** First back-off; doubled each time, capped at maxDelayMs, with up to 50% jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The wait before the next try after `attempt` failed (1-based), with jitter so retries spread out. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp * (0.5 + random() * 0.5));
}
