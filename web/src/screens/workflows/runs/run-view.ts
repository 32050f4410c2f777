/**
 * What the run page and the runs list show, as plain functions over the API's values: the word a
 * step's status reads as, its colour, the timeline's bars, durations, an approval's time left,
 * and what to do about an error code. No React, so each is tested on its own.
 */
import type { Run, RunDetail, Step } from "@vektor/shared/schemas/workflow";
import { isTerminalRun } from "@vektor/shared/schemas/vocab";

/** The words a step's status reads as (the names; tests find steps by them). */
export const STEP_WORDS = ["queued", "running", "succeeded", "failed", "waiting_approval", "skipped", "cancelled"] as const;
export type StepWord = (typeof STEP_WORDS)[number];

/**
 * A step's status as a person reads it. The engine keeps a step `pending` until it starts; when a
 * run ends it marks every unfinished step `skipped` in the same moment. In a cancelled run those
 * read `cancelled` (the person stopped them); steps skipped earlier, on their own, stay `skipped`.
 */
export function stepWord(step: Pick<Step, "status" | "finishedAt">, run: Pick<Run, "status" | "finishedAt">): StepWord {
  const open = step.status === "pending" || step.status === "running" || step.status === "waiting_approval";
  if (run.status === "cancelled" && (open || (step.status === "skipped" && endedWithRun(step, run)))) return "cancelled";
  if (open && isTerminalRun(run.status)) return "skipped";
  return step.status === "pending" ? "queued" : step.status;
}

/** The step was closed by the run's end (its finish written right after the run's). */
const endedWithRun = (step: Pick<Step, "finishedAt">, run: Pick<Run, "finishedAt">) => !step.finishedAt || !run.finishedAt || Date.parse(step.finishedAt) >= Date.parse(run.finishedAt);

/** The colour family of a status word (CSS class `tone-<tone>`), for steps and runs alike. */
export type Tone = "idle" | "busy" | "good" | "bad" | "wait" | "off";

const TONES: Record<string, Tone> = {
  queued: "idle",
  running: "busy",
  succeeded: "good",
  failed: "bad",
  waiting_approval: "wait",
  skipped: "off",
  cancelled: "off",
};

export const toneOf = (word: string): Tone => TONES[word] ?? "idle";

/** `950` -> `950 ms`, `61_000` -> `1 min 1 s`, `3_720_000` -> `1 h 2 min`. */
export function formatDuration(ms: number): string {
  if (ms < 0) ms = 0;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

/** How long something that started at `start` took (or has taken until `now`), or null before it started. */
export function elapsed(start: string | null, end: string | null, now: number): number | null {
  if (!start) return null;
  return Math.max(0, (end ? Date.parse(end) : now) - Date.parse(start));
}

/** An approval's time left: `2 h 5 min left`, `45 s left`, or `timed out` once `expiresAt` passed. */
export function timeLeft(expiresAt: string, now: number): string {
  const left = Date.parse(expiresAt) - now;
  if (left <= 0) return "timed out";
  if (left < 60_000) return `${Math.ceil(left / 1000)} s left`;
  const minutes = Math.floor(left / 60_000);
  if (minutes < 60) return `${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min left` : `${hours} h left`;
  return `${Math.floor(hours / 24)} days left`;
}

/** One bar of the timeline: where it starts and how wide it is, in percent of the run's span. */
export interface Bar {
  nodeId: string;
  /** Percent of the span before the step started. */
  left: number;
  /** Percent of the span the step took; at least MIN_BAR so an instant step still shows. */
  width: number;
  /** Milliseconds, null for a step that never started. */
  ms: number | null;
}

/** The narrowest bar (percent): an inline step takes a millisecond, and a bar of 0 is invisible. */
export const MIN_BAR = 0.5;

/**
 * The timeline: one bar per step along the run's span (first start to last end, or `now` while a
 * step is running). A step that has not started has no bar (width 0, ms null).
 */
export function timeline(steps: readonly Pick<Step, "nodeId" | "startedAt" | "finishedAt">[], now: number): { bars: Bar[]; spanMs: number } {
  const started = steps.filter((s) => s.startedAt);
  if (!started.length) return { bars: steps.map((s) => ({ nodeId: s.nodeId, left: 0, width: 0, ms: null })), spanMs: 0 };
  const from = Math.min(...started.map((s) => Date.parse(s.startedAt!)));
  const to = Math.max(...started.map((s) => (s.finishedAt ? Date.parse(s.finishedAt) : now)));
  const span = Math.max(1, to - from);
  const bars = steps.map((s): Bar => {
    if (!s.startedAt) return { nodeId: s.nodeId, left: 0, width: 0, ms: null };
    const start = Date.parse(s.startedAt) - from;
    const ms = (s.finishedAt ? Date.parse(s.finishedAt) : now) - Date.parse(s.startedAt);
    const left = (100 * start) / span;
    const width = Math.min(100 - left, Math.max(MIN_BAR, (100 * ms) / span));
    return { nodeId: s.nodeId, left: round(left), width: round(width), ms: Math.max(0, ms) };
  });
  return { bars, spanMs: to - from };
}

const round = (n: number) => Math.round(n * 100) / 100;

/** What a person can do about a step's or a run's error code (the tool codes, the engine's own). */
const ADVICE: Record<string, string> = {
  INPUT_INVALID: "The file is damaged or not the kind this step takes. Check or replace the file, then run again.",
  INPUT_EMPTY: "The file has nothing this step can work on (no pages, no shapes, no points). Use another file.",
  INPUT_UNSUPPORTED: "The file is a variant this tool cannot read. Convert it to a common variant first.",
  INPUT_TOO_LARGE: "The file is larger than this step accepts. Split or reduce it, or ask an admin to raise the limit.",
  PARAMS_INVALID: "The step's settings are not valid. Fix them in the editor and replay the run.",
  TOOL_FAILED: "The tool could not finish with this file. Retrying may help; otherwise try other settings.",
  TIMEOUT: "The step took longer than allowed. Retry, or split the work into smaller files.",
  WORKER_CRASHED: "The worker running the step stopped. Retry the failed steps.",
  CANCELLED: "The run was cancelled. Replay it to run it again.",
  APPROVAL_REJECTED: "Someone rejected the approval. Retry the failed steps to ask again.",
  APPROVAL_TIMEOUT: "Nobody decided in time. Retry the failed steps to ask again.",
  STEP_FAILED: "A step of the run failed. Open it below to see why.",
  INSUFFICIENT_CREDITS: "Your account has too few credits. Add credits, then try again.",
  LIMIT_EXCEEDED: "The run goes beyond a configured limit. Make it smaller or ask an admin.",
};

/** What to do about an error code, or a generic hint for a code this page does not know. */
export const adviceFor = (code: string) => ADVICE[code] ?? "Retry the failed steps; if it fails again, check the step's files and settings.";

/** The detail with a step replaced (or added, at the end) by the one the event stream sent. */
export function withStep(detail: RunDetail, step: Step): RunDetail {
  const at = detail.steps.findIndex((s) => s.nodeId === step.nodeId);
  const steps = at < 0 ? [...detail.steps, step] : detail.steps.map((s, i) => (i === at ? step : s));
  return { ...detail, steps };
}

/** Steps by the op.workflow step they run under (null: the top level), each group in the run's order. */
export function nestSteps<S extends Pick<Step, "parentNodeId">>(steps: readonly S[]): Map<string | null, S[]> {
  const out = new Map<string | null, S[]>();
  for (const s of steps) {
    const group = out.get(s.parentNodeId);
    if (group) group.push(s);
    else out.set(s.parentNodeId, [s]);
  }
  return out;
}
