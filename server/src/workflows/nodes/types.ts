/**
 * The contract of a workflow node kind (n8n's `*.node.ts`): a declarative description that the
 * catalog, validation and the engine all read, and an `execute` that the engine calls when the
 * step's inputs are ready. The engine knows no node by name.
 */
import type { FormatId } from "@vektor/shared/formats";
import type { NodeCategory } from "@vektor/shared/schemas/vocab";
import type { TObject } from "@sinclair/typebox";

/** A file as a step sees it: ids pass between steps, never bytes. */
export interface FileRef {
  id: string;
  filename: string;
  mime: string;
  size: number;
  /** Format id from shared/formats, or null when none matched. */
  format: string | null;
  createdAt: Date;
}

/** Storage work a node may ask of the engine (it owns the store and the file table). */
export interface StepFiles {
  /** Writes one STORE-mode ZIP of `files` named `name` as a new file of the run's owner; returns it. */
  zip(name: string, files: FileRef[]): Promise<FileRef>;
  /** A new file of the run's owner with the same bytes under another name; returns it. */
  copyAs(file: FileRef, filename: string): Promise<FileRef>;
  /** The owner's UPLOADED files with these ids (unknown ids left out), in the order given. */
  byIds(ids: string[]): Promise<FileRef[]>;
  /** The owner's UPLOADED files confirmed after `since` (all when null) that are not outputs of a job, oldest first. */
  uploadedSince(since: Date | null): Promise<FileRef[]>;
}

export interface StepContext {
  runId: string;
  userId: string;
  nodeId: string;
  /** The node's params, validated against its schema with defaults applied. */
  params: Record<string, unknown>;
  /** The union of the predecessors' outputs, in edge order, without duplicates. */
  inputs: FileRef[];
  /** The files the run was started with (its trigger's files); looked up only by the nodes that ask. */
  runInputs(): Promise<FileRef[]>;
  /** When the workflow's previous run was created (for source.upload sinceLastRun), or null; looked up only when asked. */
  previousRunAt(): Promise<Date | null>;
  /** The run's start time (for sink.rename's {date}). */
  startedAt: Date;
  /**
   * The node was inlined from a sub-workflow (an op.workflow step runs it). A nested
   * source.upload gives its `inputs` (what the op.workflow step was given), not the run's files.
   */
  nested: boolean;
  files: StepFiles;
  /** A line for the step's log, shown on the run detail. */
  log(line: string): void;
}

/** One tool run an op step asks for; the step ends when all of them have ended. */
export interface ToolJobSpec {
  type: string;
  inputFileIds: string[];
  params: Record<string, unknown>;
}

export type StepResult =
  /** The step is done with these output files. */
  | { kind: "done"; outputs: FileRef[] }
  /** op.<slug>: run these tool jobs (none: done with no outputs); the outputs are theirs. */
  | { kind: "jobs"; jobs: ToolJobSpec[] }
  /** logic.approval: the run waits for a decision or the timeout; on approval the outputs are the inputs. */
  | { kind: "approval"; timeoutSeconds: number };

/** What a node kind says about the data it takes and gives (format ids; "any" passes anything through). */
export interface NodeIo {
  accepts: readonly FormatId[] | "any";
  /** "inputs": the same formats it was given (filters, merges, approvals, renames). */
  produces: readonly FormatId[] | "inputs";
  /** op nodes: how many files one tool run takes (above 1: one run over all the step's inputs). */
  minInputs?: number;
  maxInputs?: number;
}

export type { NodeCategory } from "@vektor/shared/schemas/vocab";

export interface NodeDescription {
  /** The node's `type` in graphJson (`logic.filter`, `op.pdf.compress`, ...). */
  type: string;
  category: NodeCategory;
  title: string;
  description: string;
  /** TypeBox schema of `data.params` (defaults applied before execute). */
  params: TObject;
  io: NodeIo;
  /** Tool steps charged per run (op.<slug>: 1; everything else 0). */
  chargedSteps: number;
  /**
   * The kind only reads the database (no object writes, no slow work), so the engine runs it
   * inside the transition that readied it instead of through a queued job: a chain of such
   * steps costs one transaction, not a queue round trip each. Kinds that write objects
   * (sink.zip, sink.rename) or wait (logic.approval) leave it unset.
   */
  inline?: boolean;
}

export interface NodeKind {
  description: NodeDescription;
  execute(ctx: StepContext): Promise<StepResult>;
  /**
   * The formats the node gives for these (validated) params when they narrow `io.produces`
   * (gis.convert `to: "gpkg"` gives only gpkg; logic.filter `formats` keeps only those), or
   * undefined when they do not. Validation intersects the node's outputs with it.
   */
  producesFor?(params: Record<string, unknown>): readonly string[] | undefined;
}
