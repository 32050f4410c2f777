/**
 * Starting a trigger's run exactly once: the fire's row, unique per (trigger, fire time) or
 * (trigger, file), is inserted in the transaction that charges and creates the run. A second
 * fire of the same thing (a re-run job, another process) waits on that key and then finds it
 * taken: nothing is charged or created twice. A refusal (no credits, workflows off, a file gone)
 * records nothing and is only logged: there is nobody to answer.
 */
import { ServiceError } from "@vektor/shared/errors";
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client";
import { workflow, workflowTrigger, workflowTriggerFire } from "../../db/schema";
import { newId } from "../../lib/ids";
import type { Logger } from "../../log";
import type { Settings } from "../../config/keys";

/**
 * What triggers need of the workflows service (modules/workflows implements it; the composition
 * root passes it in): the owner check of a workflow, and starting a run of it, optionally with
 * `inTx` run first in the run's transaction (a fire's row, so a fire starts at most one run).
 */
export interface WorkflowRuns {
  owned(userId: string, workflowId: string): Promise<{ id: string; userId: string }>;
  run(caller: { id: string }, workflowId: string, fileIds: string[], trigger: "webhook" | "schedule" | "watch", replayOf: null, inTx?: (tx: Tx, runId: string) => Promise<void>): Promise<{ runId: string; credits: number }>;
}

export interface TriggerJobDeps {
  db: Db;
  config: Settings;
  workflows: WorkflowRuns;
  log: Logger;
}

/** A trigger with its workflow's owner. */
export interface OwnedTrigger {
  id: string;
  workflowId: string;
  userId: string;
  type: string;
  config: Record<string, unknown>;
}

class AlreadyFired extends Error {}

export async function loadTrigger(db: Db, triggerId: string): Promise<OwnedTrigger | null> {
  const [row] = await db
    .select({ id: workflowTrigger.id, workflowId: workflowTrigger.workflowId, userId: workflow.userId, type: workflowTrigger.type, config: workflowTrigger.config })
    .from(workflowTrigger)
    .innerJoin(workflow, eq(workflow.id, workflowTrigger.workflowId))
    .where(eq(workflowTrigger.id, triggerId));
  return row ?? null;
}

/** The run's id, or null when this fire already started one or the run was refused (logged). */
export async function fireOnce(d: TriggerJobDeps, t: OwnedTrigger, kind: "schedule" | "watch", fileIds: string[], key: { fireAt: Date } | { fileId: string }): Promise<string | null> {
  const fireAt = "fireAt" in key ? key.fireAt : null;
  const fileId = "fileId" in key ? key.fileId : null;
  const taken = await d.db
    .select({ id: workflowTriggerFire.id })
    .from(workflowTriggerFire)
    .where(and(eq(workflowTriggerFire.triggerId, t.id), fireAt ? eq(workflowTriggerFire.fireAt, fireAt) : eq(workflowTriggerFire.fileId, fileId!)));
  if (taken.length) return null;
  try {
    const started = await d.workflows.run({ id: t.userId }, t.workflowId, fileIds, kind, null, async (tx, runId) => {
      const claimed = await tx.insert(workflowTriggerFire).values({ id: newId("tf"), triggerId: t.id, fireAt, fileId, runId }).onConflictDoNothing().returning({ id: workflowTriggerFire.id });
      if (!claimed.length) throw new AlreadyFired();
    });
    d.log.info({ triggerId: t.id, workflowId: t.workflowId, runId: started.runId, trigger: kind, fireAt, fileId }, "trigger started a run");
    return started.runId;
  } catch (e) {
    if (e instanceof AlreadyFired) return null;
    if (e instanceof ServiceError) {
      d.log.info({ triggerId: t.id, workflowId: t.workflowId, trigger: kind, fireAt, fileId, code: e.code, reason: e.message }, "trigger did not start a run");
      return null;
    }
    throw e; // database trouble: the queue tries the fire again with back-off
  }
}
