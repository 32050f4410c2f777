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
    /**
     * The engine reads inputs from host files (ToolInput.path) and writes outputs to a host
     * folder (RunContext.outputDir) when the host offers them: its memory does not grow with the
     * file. A host that offers neither passes bytes, as to every other tool.
     */
    hostFiles?: boolean;
    /**
     * In a Web Worker (the browser's tool worker), the engine mounts an input given as a File or
     * Blob (ToolInput.blob) and reads it a piece at a time as it needs it (Emscripten's WORKERFS;
     * the PDF tools read it through mupdf's Stream, the point-cloud tools slice it) instead of having it copied into memory. Any other tool gets such an input read whole.
     */
    blobInputs?: boolean;
  };
  /** JSON schema (TypeBox) of the params, with defaults and limits. */
  params: TObject;
  /** Same input and params give the same output bytes. */
  deterministic: boolean;
  limits?: ToolLimits;
}

export interface ToolLimits {
  maxInputBytes?: number;
  timeoutMs?: number;
  /**
   * The engine's measured peak memory per input byte, beyond its own fixed size, when the input
   * comes as the browser gives it (bytes, or a mounted File where the tool streams): the worker's
   * peak RSS growth over the input's growth, from `BENCH_TOOLS_BIG=1 npm run bench -- tools`. What
   * a host with a memory budget (the browser) checks before running it. 0: memory does not grow
   * with the input. Absent: not measured.
   */
  memoryPerInputByte?: number;
}

export interface ToolInput {
  name: string;
  /** The file's bytes; with `path` or `blob`, only its first ones (enough to tell its format). */
  bytes: Uint8Array;
  mime?: string;
  /** A file on the host holding the whole input (io.hostFiles tools, on a host that stages inputs on disk). */
  path?: string;
  /**
   * The whole input as a browser File or Blob (set by the browser's host, which then gives only
   * the file's first bytes in `bytes`). An io.blobInputs tool mounts it and reads it lazily instead
   * of copying it into its engine's memory; for any other tool, or where a Blob cannot be mounted
   * (no FileReaderSync: not a Web Worker), execute() reads it whole into `bytes` first.
   */
  blob?: Blob;
  /** The whole input's size (given with `path` or `blob`; else `bytes` is the whole input). */
  size?: number;
}

export interface ToolOutput {
  name: string;
  /** The output's bytes; empty when it is the host file `path` or the Blob `blob`. */
  bytes: Uint8Array;
  mime: string;
  /** A file in RunContext.outputDir holding the output, which the host reads from there. */
  path?: string;
  /**
   * The output as a File or Blob (bytes empty): in the browser, a File on disk in the Origin
   * Private File System (RunContext.outputFolder), which the page offers or passes on without
   * reading it into memory. Its type may be empty: `mime` is the output's type. Never on the server.
   */
  blob?: Blob;
}

export interface RunContext {
  signal: AbortSignal;
  /** fraction in 0..1 */
  onProgress: (fraction: number, message?: string) => void;
  /** A host folder an io.hostFiles tool writes its outputs into (absent: outputs are returned as bytes). */
  outputDir?: string;
  /**
   * The browser's tool worker: a folder of the Origin Private File System for this run, which a
   * tool that can may write its outputs into and return as Files on disk (ToolOutput.blob). The
   * host removes it when the outputs are no longer needed. Absent: outputs are returned as bytes.
   */
  outputFolder?: FileSystemDirectoryHandle;
}

/** An input's whole size, whether its bytes are all there or it is a host file or a Blob. */
export function inputSize(input: ToolInput): number {
  return input.size ?? input.blob?.size ?? input.bytes.byteLength;
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
