/** Messages between the server's worker pool and its tool workers. */
import type { ToolErrorCode, ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";

/** `outputDir`: a host folder the tool may write outputs into (io.hostFiles tools; see RunContext.outputDir). */
export type PoolRequest = { type: "run"; id: string; slug: string; inputs: ToolInput[]; params: unknown; outputDir?: string } | { type: "cancel"; id: string };

export type PoolReply =
  | { type: "ready" }
  /** The tool's engine is loaded and its run begins: the job's clock starts here. */
  | { type: "started"; id: string }
  | { type: "progress"; id: string; fraction: number; message?: string }
  /** `ranMs`: the tool's own run as the worker timed it, outputs packed (the hops to and from the worker not counted). */
  | { type: "result"; id: string; ok: true; outputs: ToolOutput[]; ranMs?: number }
  | { type: "result"; id: string; ok: false; error: { code: ToolErrorCode; message: string } };

export type RunOutcome = { ok: true; outputs: ToolOutput[]; ranMs?: number } | { ok: false; error: { code: ToolErrorCode; message: string } };
