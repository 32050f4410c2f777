/**
 * The browser's workflow executor, with nothing of the browser in it: it runs a run plan
 * (shared/src/workflows/plan.ts) over files held in memory, one step at a time, with the shared
 * scheduling rules (which step is ready, what it is given, how the run settles) and the shared
 * node behaviours (filter, merge, rename, ZIP naming, per-file vs all-files tool runs). Tools run
 * through `runTool` (the page's tool worker; in a parity test, wasm-tools directly) and an
 * approval asks through `askApproval` (the page asks the person). Nothing is uploaded and
 * nothing is charged.
 */
import { candidateFormats } from "@vektor/shared/formats";
import type { StepStatus } from "@vektor/shared/schemas/vocab";
import { ToolError, type ToolInput, type ToolOutput } from "@vektor/shared/tools/manifest";
import { safeEntryNames, uniqueFiles } from "@vektor/shared/workflows/files";
import { SOURCE_TYPE, SUB_WORKFLOW_TYPE } from "@vektor/shared/workflows/kinds";
import { filterFiles, mergeFiles, opRuns, renamePlan, zipName, type FilterRule } from "@vektor/shared/workflows/nodes";
import { isReady, predecessors, runOutputs, settleRun, stepInputs, type PlanNode, type RunPlan } from "@vektor/shared/workflows/plan";
import type { KindLookup } from "@vektor/shared/workflows/registry";
import { storeZipBlob } from "../../components/blob-zip";
import { blobInput } from "../../tools/blob-input";
import { outputBlob } from "../../tools/output-blob";

/**
 * A file of a run on this device, with what the node behaviours read: a Blob (the picked File
 * itself, or what a step made), not bytes in the page's memory. The browser keeps a big Blob
 * outside the page (on disk when it must), and a tool that streams reads it a piece at a time.
 */
export interface LocalFile {
  id: string;
  filename: string;
  mime: string;
  size: number;
  /** Format id from shared/formats, or null when none matched. */
  format: string | null;
  blob: Blob;
}

/** Runs one tool on some files (the tool worker, or wasm-tools' execute). */
export type RunTool = (slug: string, inputs: ToolInput[], params: Record<string, unknown>, signal: AbortSignal) => Promise<ToolOutput[]>;

/** What an approval step shows the person: the step and the files it gates. */
export interface ApprovalAsk {
  nodeId: string;
  files: readonly LocalFile[];
}

export type AskApproval = (ask: ApprovalAsk) => Promise<{ approved: boolean; note?: string }>;

export interface StepError {
  code: string;
  message: string;
}

export interface LocalStep {
  nodeId: string;
  type: string;
  parentNodeId: string | null;
  status: StepStatus;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: StepError | null;
  outputs: LocalFile[];
  logs: string[];
}

export interface LocalRunOptions {
  plan: RunPlan;
  kinds: KindLookup;
  /** The run's files: what a top-level source.upload gives. */
  files: readonly LocalFile[];
  runTool: RunTool;
  askApproval: AskApproval;
  /** For sink.rename's {date}; now by default. */
  startedAt?: Date;
  signal?: AbortSignal;
  /** Called after every change of a step (its status, its outputs). */
  onChange?: (steps: readonly LocalStep[]) => void;
}

export interface LocalRunResult {
  status: "succeeded" | "failed" | "cancelled";
  error: StepError | null;
  steps: LocalStep[];
  /** What the run's sinks gave (or its last steps, without a sink). */
  outputs: LocalFile[];
}

/** A step that fails with a code a person can act on. */
class StepFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A file of this device: a picked File, or one made here (a tool's output, a renamed copy, a ZIP). */
export function localFile(filename: string, mime: string, data: Blob | Uint8Array, format?: string | null): LocalFile {
  const blob = data instanceof Blob ? data : new Blob([data as Uint8Array<ArrayBuffer>], { type: mime });
  return { id: crypto.randomUUID(), filename, mime, size: blob.size, format: format !== undefined ? format : (candidateFormats(mime, filename)[0]?.id ?? null), blob };
}

/** One STORE-mode ZIP of `files` (see blob-zip.ts), entries named as the server names them (safe, unique). */
export async function zipFiles(name: string, files: readonly LocalFile[], modified = new Date()): Promise<LocalFile> {
  const names = safeEntryNames(files.map((f) => f.filename));
  return localFile(name, "application/zip", await storeZipBlob(files.map((f, i) => ({ name: names[i], blob: f.blob })), modified), "zip");
}

interface StepRun {
  node: PlanNode;
  inputs: LocalFile[];
  log: (line: string) => void;
}

class Executor {
  readonly steps: LocalStep[];
  private readonly byNode: Map<string, LocalStep>;
  private readonly preds: Map<string, string[]>;
  private readonly nodes: Map<string, PlanNode>;
  private readonly signal: AbortSignal;

  constructor(private readonly opts: LocalRunOptions) {
    this.steps = opts.plan.nodes.map((n) => ({ nodeId: n.id, type: n.type, parentNodeId: n.parentId, status: "pending", startedAt: null, finishedAt: null, error: null, outputs: [], logs: [] }));
    this.byNode = new Map(this.steps.map((s) => [s.nodeId, s]));
    this.nodes = new Map(opts.plan.nodes.map((n) => [n.id, n]));
    this.preds = predecessors(opts.plan);
    this.signal = opts.signal ?? new AbortController().signal;
  }

  private before(step: LocalStep): LocalStep[] {
    return (this.preds.get(step.nodeId) ?? []).map((id) => this.byNode.get(id)!);
  }

  private changed(): void {
    this.opts.onChange?.(this.steps);
  }

  async run(): Promise<LocalRunResult> {
    for (;;) {
      if (this.signal.aborted) return this.end("cancelled", { code: "CANCELLED", message: "The run was cancelled" });
      if (this.steps.some((s) => s.status === "failed")) break;
      const next = this.steps.find((s) => isReady(s, this.before(s)));
      if (!next) break;
      await this.runStep(next);
    }
    if (this.signal.aborted) return this.end("cancelled", { code: "CANCELLED", message: "The run was cancelled" });
    const settled = settleRun(this.steps);
    if (settled.status === "failed") {
      const { failed } = settled;
      return this.end("failed", { code: failed.error?.code ?? "STEP_FAILED", message: `Step ${failed.nodeId}: ${failed.error?.message ?? "failed"}` });
    }
    if (settled.status === "succeeded") return { status: "succeeded", error: null, steps: this.steps, outputs: runOutputs(this.opts.plan, this.steps) };
    return this.end("failed", { code: "STEP_FAILED", message: "The run stopped with steps that could not start" });
  }

  /** A run that ends early: what did not finish is skipped, as the server's engine does. */
  private end(status: "failed" | "cancelled", error: StepError): LocalRunResult {
    for (const s of this.steps) {
      if (s.status === "succeeded" || s.status === "failed" || s.status === "skipped") continue;
      s.status = "skipped";
      s.finishedAt = new Date();
    }
    this.changed();
    return { status, error, steps: this.steps, outputs: [] };
  }

  private async runStep(step: LocalStep): Promise<void> {
    const node = this.nodes.get(step.nodeId)!;
    Object.assign(step, { status: "running", startedAt: new Date(), error: null, outputs: [] });
    this.changed();
    const inputs = stepInputs(this.before(step).map((p) => p.outputs));
    try {
      step.outputs = await this.execute({ node, inputs, log: (line) => void step.logs.push(line) }, step);
      step.status = "succeeded";
    } catch (err) {
      step.status = "failed";
      step.error = stepError(err, this.signal);
    }
    step.finishedAt = new Date();
    this.changed();
  }

  /** What the step's kind gives for its inputs (see the server's node kinds for the same rules). */
  private async execute({ node, inputs, log }: StepRun, step: LocalStep): Promise<LocalFile[]> {
    const { type, params } = node;
    if (type === SOURCE_TYPE) return node.nested ? inputs : this.runFiles(params);
    if (type === SUB_WORKFLOW_TYPE || type === "sink.download" || type.startsWith("trigger.")) return inputs;
    if (type === "logic.merge") return mergeFiles(inputs);
    if (type === "logic.filter") {
      const { kept, log: line } = filterFiles(inputs, params as FilterRule);
      log(line);
      return kept;
    }
    if (type === "logic.approval") return this.approval(node, inputs, step);
    if (type === "sink.rename") return renamePlan(inputs, params.pattern as string, this.opts.startedAt ?? new Date()).map(({ file, name, same }) => (same ? file : { ...file, id: crypto.randomUUID(), filename: name }));
    if (type === "sink.zip") return inputs.length ? [await zipFiles(zipName(params.name as string), inputs)] : [];
    if (type.startsWith("op.")) return this.tool(node, inputs, log);
    throw new StepFailure("UNKNOWN_NODE_TYPE", `No node kind "${type}" on this device`);
  }

  /** A top-level source.upload: the run's files (stored files and uploads since a run live on the server). */
  private runFiles(params: Record<string, unknown>): LocalFile[] {
    if ((params.fileIds as unknown[] | undefined)?.length || params.sinceLastRun) throw new StepFailure("INPUT_INVALID", "This step takes files stored on the server (fileIds or sinceLastRun): run the workflow on the server");
    return uniqueFiles(this.opts.files);
  }

  private async approval(node: PlanNode, inputs: LocalFile[], step: LocalStep): Promise<LocalFile[]> {
    step.status = "waiting_approval";
    this.changed();
    const decision = await this.opts.askApproval({ nodeId: node.id, files: inputs });
    step.status = "running";
    if (!decision.approved) throw new StepFailure("APPROVAL_REJECTED", decision.note ? `Rejected: ${decision.note}` : "Rejected");
    return inputs;
  }

  /** op.<tool>: the shared split into runs (per file, or all files in one), each run in turn. */
  private async tool(node: PlanNode, inputs: LocalFile[], log: (line: string) => void): Promise<LocalFile[]> {
    const slug = node.type.slice("op.".length);
    const kind = this.opts.kinds.kind(node.type);
    if (!kind || kind.io.accepts === "any") throw new StepFailure("UNKNOWN_NODE_TYPE", `No tool "${slug}" on this device`);
    const runs = opRuns({ slug, accepts: kind.io.accepts, minInputs: kind.io.minInputs, maxInputs: kind.io.maxInputs }, inputs, log);
    if (runs.length === 0) log("No input this tool accepts: nothing to do");
    const outputs: LocalFile[] = [];
    for (const files of runs) {
      const given = await Promise.all(files.map((f) => blobInput(f.filename, f.blob, f.mime)));
      for (const out of await this.opts.runTool(slug, given, node.params, this.signal)) outputs.push(localFile(out.name, out.mime, outputBlob(out)));
    }
    return outputs;
  }
}

function stepError(err: unknown, signal: AbortSignal): StepError {
  if (signal.aborted) return { code: "CANCELLED", message: "The run was cancelled" };
  if (err instanceof StepFailure || err instanceof ToolError) return { code: err.code, message: err.message };
  const code = (err as { code?: unknown } | null)?.code;
  return { code: typeof code === "string" ? code : "TOOL_FAILED", message: (err as Error)?.message ?? String(err) };
}

/** Runs `opts.plan` to its end (see the module comment). Never throws for a step's failure: the result says it. */
export function runLocal(opts: LocalRunOptions): Promise<LocalRunResult> {
  return new Executor(opts).run();
}
