/**
 * One handler per job kind, as data. The registry refuses to start with a kind that has no
 * handler or two (immich's job repository), and says which lane each kind's jobs run in.
 */
import type { Tx } from "../db/client";
import type { JobRow } from "./kinds";
import { JOB_KINDS, LANES, type JobData, type JobKind, type RetryPolicy } from "./kinds";

export type Failure = { code: string; message: string };

/** A claimed control job as its handler sees it. */
export interface ControlJob<K extends JobKind> {
  id: string;
  kind: K;
  data: JobData[K];
  userId: string | null;
  /** 1 on the first try. */
  attempts: number;
}

/**
 * What `run` answers when an attempt did not get through for a reason it expected (a receiver
 * that answered 503, an SMTP server that refused): the runner tries again per the kind's retry
 * policy, exactly as after a throw (the attempt counted, the back-off stored as run_after, the
 * final failure after the last attempt), but logs one line with `reason` and the `log` fields
 * instead of a stack trace. A throw is for what nobody expected, and is logged with its stack.
 */
export interface RetryRequest {
  retry: string;
  /** Fields for the attempt's log line (ids that say what was attempted). */
  log?: Record<string, unknown>;
}

/** Nothing: the job succeeded. A RetryRequest: this attempt failed and the job should be tried again. */
export type ControlOutcome = void | RetryRequest;

/** A short job run in the control lane: `run` does the work, and must be safe to run again (a crash re-runs it). */
export interface ControlHandler<K extends Exclude<JobKind, "tool.run">> {
  kind: K;
  retry: RetryPolicy;
  run(job: ControlJob<K>): Promise<ControlOutcome>;
  /** In the transaction that records the success (e.g. queue the next sweep). */
  onSucceeded?(tx: Tx, job: ControlJob<K>): Promise<void>;
  /** In the transaction that records the final failure, after the last try. */
  onFailed?(tx: Tx, job: ControlJob<K>, failure: Failure): Promise<void>;
}

export type ToolOutcome = { ok: true; outputFileIds: string[] } | { ok: false; error: Failure; cancelled: boolean };

/** tool.run runs on the worker pool (its executor, tools/tool-run.ts); its handler is the hook called where the outcome is recorded. */
export interface ToolRunHandler {
  kind: "tool.run";
  /** Claims of one job before it is given up (a job that kills its worker every time). */
  maxAttempts: number;
  /** In the transaction that records the outcome: a workflow step's successors are queued here. */
  onSettled(tx: Tx, row: JobRow, outcome: ToolOutcome): Promise<void>;
  /**
   * Whether onSettled writes anything for this job. When it says no, the outcome is recorded in
   * one statement without a transaction around it (tools/record-success.ts, settle.ts settleAtOnce); unsaid: it may.
   */
  writesOnSettled?(row: JobRow): boolean;
}

/**
 * A kind whose claimed jobs the runner hands over whole instead of calling a handler's `run`
 * (tool.run: tools/tool-run.ts runs the tool on the worker pool and records its outputs). It
 * settles the job itself, through settle.ts.
 */
export interface KindExecutor {
  run(row: JobRow, signal: AbortSignal): Promise<void>;
  /** `run` threw `err` (its outcome could not be recorded): retry the job or end it. */
  trouble(row: JobRow, err: unknown): Promise<void>;
}

export type AnyControlHandler = { [K in Exclude<JobKind, "tool.run">]: ControlHandler<K> }[Exclude<JobKind, "tool.run">];
export type AnyHandler = ToolRunHandler | AnyControlHandler;

export class JobHandlers {
  private readonly byKind = new Map<JobKind, AnyHandler>();

  /** Throws when a kind has no handler or two, or a handler names a kind the queue does not know. */
  constructor(handlers: AnyHandler[]) {
    for (const h of handlers) {
      if (!Object.hasOwn(LANES, h.kind)) throw new Error(`job handlers: unknown kind "${h.kind}"`);
      if (this.byKind.has(h.kind)) throw new Error(`job handlers: kind "${h.kind}" has two handlers`);
      this.byKind.set(h.kind, h);
    }
    const missing = JOB_KINDS.filter((k) => !this.byKind.has(k));
    if (missing.length) throw new Error(`job handlers: no handler for ${missing.join(", ")}`);
  }

  get tool(): ToolRunHandler {
    return this.byKind.get("tool.run") as ToolRunHandler;
  }

  control(kind: string): AnyControlHandler | undefined {
    const h = this.byKind.get(kind as JobKind);
    return h && h.kind !== "tool.run" ? h : undefined;
  }
}
