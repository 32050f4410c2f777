/**
 * The contract every tool module in wasm-tools/ declares. The same manifest feeds the server's
 * tool endpoints, the workflow catalog (`op.<slug>`), MCP and the browser UI.
 */
import type { TObject } from "@sinclair/typebox";
import type { FormatId } from "../formats";

export type ToolFamily = "pdf" | "cad" | "gis" | "pointcloud" | "pcb" | "bim" | "media" | "drawing" | "mesh";

export interface ToolManifest {
  /** `<family>.<operation>`, e.g. `pdf.compress`. */
  slug: string;
  family: ToolFamily;
  title: string;
  description: string;
  io: {
    accepts: FormatId[];
    produces: FormatId[];
    /** How many input files one run takes (default 1..1). */
    minInputs?: number;
    maxInputs?: number;
  };
  /** JSON schema (TypeBox) of the params, with defaults and limits. */
  params: TObject;
  /** Same input and params give the same output bytes. */
  deterministic: boolean;
  limits?: { maxInputBytes?: number; timeoutMs?: number };
}

export interface ToolInput {
  name: string;
  bytes: Uint8Array;
  mime?: string;
}

export interface ToolOutput {
  name: string;
  bytes: Uint8Array;
  mime: string;
}

export interface RunContext {
  signal: AbortSignal;
  /** fraction in 0..1 */
  onProgress: (fraction: number, message?: string) => void;
}

export type ToolRun<P = Record<string, unknown>> = (inputs: ToolInput[], params: P, ctx: RunContext) => Promise<ToolOutput[]>;

/** Error codes a failed job carries (`errorCode`). */
export type ToolErrorCode =
  | "INPUT_INVALID" // wrong kind of file, truncated, corrupt
  | "INPUT_EMPTY" // zero bytes, no pages, no solids, no points
  | "INPUT_UNSUPPORTED" // a real file of a variant the tool cannot read
  | "INPUT_TOO_LARGE"
  | "PARAMS_INVALID"
  | "TOOL_FAILED" // the library failed for another reason
  | "TIMEOUT"
  | "CANCELLED"
  | "WORKER_CRASHED";

/** A tool's own, expected failure; carries a code the job record shows. */
export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ToolError";
  }
}
