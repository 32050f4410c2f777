/**
 * Executing one step's node kind: the context it sees (its inputs as file ids resolved to rows,
 * lazy look-ups of the run's files and previous run, storage work) and the outcome, which is a
 * result or a user-facing error. Used by the `workflow.step` job (outside any transaction, for
 * kinds that write objects) and by the engine itself for inline kinds (inside the transition's
 * transaction, reading through it).
 */
import { ToolError } from "@vektor/shared/tools/manifest";
import { ServiceError } from "@vektor/shared/errors";
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { workflowRun } from "../db/schema";
import type { ObjectStore } from "../storage/types";
import type { RunRow, StepRow } from "./engine";
import { getNodeKind } from "./nodes";
import type { StepContext, StepResult } from "./nodes/types";
import { filesByIds, stepFiles } from "./step-files";

export type StepOutcome = { result: StepResult } | { error: { code: string; message: string } };

/**
 * Runs the step's node kind over `db` (the database, or the transition's transaction for an
 * inline kind). `jobKey` names what writes the step's files, so a re-run writes the same ids.
 * Errors of the user's making become the outcome; anything else (storage, database) is thrown.
 */
export async function executeStep(db: Db | Tx, store: ObjectStore, run: RunRow, step: StepRow, jobKey: string, logs: string[]): Promise<StepOutcome> {
  const node = run.plan.nodes.find((n) => n.id === step.nodeId);
  const kind = getNodeKind(step.type);
  if (!node || !kind) return { error: { code: "UNKNOWN_NODE_TYPE", message: `No node kind "${step.type}"` } };
  const q = db as Db;
  const ctx: StepContext = {
    runId: run.id,
    userId: run.userId,
    nodeId: step.nodeId,
    params: node.params,
    nested: node.nested,
    inputs: await filesByIds(q, run.userId, step.inputFileIds),
    runInputs: () => filesByIds(q, run.userId, run.inputFileIds),
    previousRunAt: () => previousRunAt(q, run),
    startedAt: run.startedAt ?? run.createdAt,
    files: stepFiles(q, store, run.userId, jobKey),
    log: (line) => void logs.push(line),
  };
  try {
    return { result: await kind.execute(ctx) };
  } catch (err) {
    if (err instanceof ServiceError || err instanceof ToolError) return { error: { code: err.code, message: err.message } };
    throw err;
  }
}

/** Whether the engine may run this kind inside the transition that readies it (see NodeDescription.inline). */
export function runsInline(type: string): boolean {
  return getNodeKind(type)?.description.inline === true;
}

async function previousRunAt(db: Db, run: RunRow): Promise<Date | null> {
  const [prev] = await db
    .select({ at: workflowRun.createdAt })
    .from(workflowRun)
    .where(and(eq(workflowRun.workflowId, run.workflowId), lt(workflowRun.createdAt, run.createdAt)))
    .orderBy(desc(workflowRun.createdAt))
    .limit(1);
  return prev?.at ?? null;
}
