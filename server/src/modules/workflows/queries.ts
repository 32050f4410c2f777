/**
 * The workflow reads every screen and poll makes (a run's detail, the lists), prepared once:
 * drizzle spends more CPU building a select than the database spends answering it.
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { delivery, workflow, workflowApproval, workflowRun, workflowStep } from "../../db/schema";
import { preparedPages } from "../../http/cursor";

const p = (name: string) => sql.placeholder(name);

export function workflowReads(db: Db) {
  return {
    ownedWorkflow: db
      .select()
      .from(workflow)
      .where(and(eq(workflow.id, p("id")), eq(workflow.userId, p("userId"))))
      .prepare("workflow_owned"),
    ownedRun: db
      .select()
      .from(workflowRun)
      .where(and(eq(workflowRun.id, p("id")), eq(workflowRun.userId, p("userId"))))
      .prepare("workflow_run_owned"),
    runSteps: db.select().from(workflowStep).where(eq(workflowStep.runId, p("runId"))).prepare("workflow_run_steps"),
    runApprovals: db.select().from(workflowApproval).where(eq(workflowApproval.runId, p("runId"))).orderBy(asc(workflowApproval.requestedAt)).prepare("workflow_run_approvals"),
    runDeliveries: db.select().from(delivery).where(eq(delivery.runId, p("runId"))).orderBy(asc(delivery.createdAt), asc(delivery.id)).prepare("workflow_run_deliveries"),
    workflowPages: preparedPages("workflows_list", workflow.createdAt, workflow.id, (after) =>
      db
        .select()
        .from(workflow)
        .where(and(eq(workflow.userId, p("userId")), after))
        .orderBy(desc(workflow.createdAt), desc(workflow.id))
        .limit(p("limit")),
    ),
    runPages: preparedPages("workflow_runs_list", workflowRun.createdAt, workflowRun.id, (after) =>
      db
        .select()
        .from(workflowRun)
        .where(and(eq(workflowRun.workflowId, p("workflowId")), after))
        .orderBy(desc(workflowRun.createdAt), desc(workflowRun.id))
        .limit(p("limit")),
    ),
  };
}
