/** Messages between the server's worker pool and its tool workers. */
import type { ToolErrorCode, ToolInput, ToolOutput } from "@vektor/shared/tools/manifest";

/** An output the worker wrote to a file itself (its bytes then empty): where, its size and sha256. */
export interface StagedOutput {
  path: string;
  size: number;
  sha256: string;
}

/** A run's output as the pool answers it: as bytes, or `staged` in a file (see PoolRequest `staging`). */
export type PooledOutput = ToolOutput & { staged?: StagedOutput };

/**
 * `outputDir`: a host folder the tool may write outputs into (io.hostFiles tools; see
 * RunContext.outputDir). `staging`: a folder where the worker writes the outputs it holds as
 * bytes, hashed (the local object store's temp folder, whence they are renamed into place): the
 * server's thread then neither hashes nor writes them, and a run begun before its job row
 * (early-run.ts) writes them while that row is inserted. `ledger`: the worker's file ledger
 * (the same for each of its runs; wasm-tools runtime/file-ledger.ts), where it counts its host
 * calls and records what it holds open, so the pool that ends it closes what it left open.
 */
export type PoolRequest = { type: "run"; id: string; slug: string; inputs: ToolInput[]; params: unknown; outputDir?: string; staging?: string; ledger?: Int32Array } | { type: "cancel"; id: string };

export type PoolReply =
  | { type: "ready" }
  /** The tool's engine is loaded and its run begins: the job's clock starts here. */
  | { type: "started"; id: string }
  | { type: "progress"; id: string; fraction: number; message?: string }
  /** `ranMs`: the tool's own run as the worker timed it, outputs packed (the hops to and from the worker not counted). */
  | { type: "result"; id: string; ok: true; outputs: PooledOutput[]; ranMs?: number }
  | { type: "result"; id: string; ok: false; error: { code: ToolErrorCode; message: string } };

export type RunOutcome = { ok: true; outputs: PooledOutput[]; ranMs?: number } | { ok: false; error: { code: ToolErrorCode; message: string } };
