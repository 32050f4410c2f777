/**
 * Timestamps along a tool call's path, for bench/tools' per-call breakdown (JOB_TRACE=1). Off
 * by default: the services then hold null and every mark is an optional call on null, nothing
 * more. On, the job path marks its steps by job id, and POST /api/tools/{slug} sends the steps
 * of its own job in a Server-Timing header (durations in ms, in path order). Marks of jobs no
 * request answers for (batch items, workflow steps) are dropped past a few hundred.
 */

/** The steps of a call, in the order they happen; each mark ends the step of its name. */
export const TRACE_STEPS = [
  /** The request arrived (http/core.ts notes it); no duration of its own. */
  "request",
  /** Body parsed and caller authenticated: the route's handler starts. */
  "auth",
  /** The checks (tool, params, inputs, the per-user setting) and the job row committed. */
  "insert",
  /** The runner claimed the job and handed it to the executor (wake-up and claim statement). */
  "claim",
  /** The input files' rows and bytes read. */
  "inputs",
  /** The hops to the worker and back: inputs handed over, tool and engine found loaded, outputs handed back. */
  "transfer",
  /**
   * The tool's own run, as the worker timed it (outputs packed), whole even where it ran under
   * earlier steps: a run begun while its job was inserted (tools/early-run.ts). The part of it
   * that did is reported as "overlap", so the steps less the overlap add up to the server's time.
   */
  "tool",
  /** The output objects written to the store. */
  "outputs",
  /** The outcome, output rows and hooks committed in one transaction. */
  "commit",
  /** The request learned of the end and built its answer. */
  "answer",
] as const;
export type TraceStep = (typeof TRACE_STEPS)[number];

const KEEP = 500;

export class JobTrace {
  private readonly marks = new Map<string, Partial<Record<TraceStep, number>>>();

  /** The step `step` of job `jobId` ended now (or at `at`, a performance.now() value). */
  mark(jobId: string, step: TraceStep, at = performance.now()): void {
    let m = this.marks.get(jobId);
    if (!m) {
      this.marks.set(jobId, (m = {}));
      if (this.marks.size > KEEP) this.marks.delete(this.marks.keys().next().value!);
    }
    m[step] = at;
  }

  /** The job's steps as a Server-Timing value (`insert;dur=1.20, claim;dur=0.80, ...`, then `overlap` if any); forgets them. */
  take(jobId: string): string {
    const m = this.marks.get(jobId) ?? {};
    this.marks.delete(jobId);
    const parts: string[] = [];
    let prev: number | undefined;
    let overlap = 0;
    for (const step of TRACE_STEPS) {
      const at = m[step];
      if (at === undefined) continue;
      // A job started in a lane held at its insert marks its claim before the request marks the insert: zero, not negative.
      if (prev !== undefined) {
        const dur = Math.max(0, at - prev);
        const own = step === "tool" && m.transfer !== undefined ? at - m.transfer : dur;
        parts.push(`${step};dur=${own.toFixed(3)}`);
        if (own > dur) overlap = own - dur;
      }
      prev = Math.max(prev ?? at, at);
    }
    if (overlap > 0) parts.push(`overlap;dur=${overlap.toFixed(3)}`);
    return parts.join(", ");
  }
}
