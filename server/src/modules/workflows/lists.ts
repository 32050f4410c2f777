/**
 * The caller's lists across workflows: every run (GET /api/workflows/runs) and the approvals
 * inbox (GET /api/workflows/approvals), newest first, paged with the same cursors as every list
 * (http/cursor.ts: the (time, id) of a page's last row).
 */
import type { ApprovalFilter, ApprovalItem, GatedFile, Run, RunStatus } from "@vektor/shared/schemas/workflow";
import { and, desc, eq, inArray, ne, sql, type Column, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { file, workflow, workflowApproval, workflowRun, workflowStep } from "../../db/schema";
import { decodeCursor, pageOf } from "../../http/cursor";
import { getNodeKind } from "../../workflows/nodes";
import { approvalView, runView } from "./view";

export interface RunFilter {
  status?: RunStatus;
  /** An id of the caller's own workflow (the service checked it). */
  workflowId?: string;
}

export interface Paged<T> {
  items: T[];
  nextCursor: string | null;
}

/** Rows strictly after the cursor in (time, id) newest-first order; nothing for the first page. */
function afterCursor(time: Column, id: Column, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const after = decodeCursor(cursor);
  return sql`(${time}, ${id}) < (${after.at.toISOString()}::timestamptz, ${after.id})`;
}

/** The caller's runs, newest first, each with its workflow's current name. */
export async function listRuns(db: Db, userId: string, filter: RunFilter, limit: number, cursor: string | undefined): Promise<Paged<Run>> {
  const rows = await db
    .select({ run: workflowRun, workflowName: workflow.name })
    .from(workflowRun)
    .innerJoin(workflow, eq(workflow.id, workflowRun.workflowId))
    .where(
      and(
        eq(workflowRun.userId, userId),
        filter.status ? eq(workflowRun.status, filter.status) : undefined,
        filter.workflowId ? eq(workflowRun.workflowId, filter.workflowId) : undefined,
        afterCursor(workflowRun.createdAt, workflowRun.id, cursor),
      ),
    )
    .orderBy(desc(workflowRun.createdAt), desc(workflowRun.id))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(
    rows.map((r) => ({ ...r, createdAt: r.run.createdAt, id: r.run.id })),
    limit,
  );
  return { items: page.map((r) => ({ ...runView(r.run), workflowName: r.workflowName })), nextCursor };
}

const statusWhere: Record<ApprovalFilter, SQL | undefined> = {
  pending: eq(workflowApproval.status, "pending"),
  decided: ne(workflowApproval.status, "pending"),
  all: undefined,
};

/**
 * The approvals of the caller's runs, newest request first, each with its run, workflow, node
 * and the files it gates (the approval step's inputs; files deleted since are left out).
 */
export async function listApprovals(db: Db, userId: string, status: ApprovalFilter, limit: number, cursor: string | undefined): Promise<Paged<ApprovalItem>> {
  const rows = await db
    .select({ approval: workflowApproval, workflowId: workflowRun.workflowId, workflowName: workflow.name, stepType: workflowStep.type, inputFileIds: workflowStep.inputFileIds })
    .from(workflowApproval)
    .innerJoin(workflowRun, eq(workflowRun.id, workflowApproval.runId))
    .innerJoin(workflow, eq(workflow.id, workflowRun.workflowId))
    .leftJoin(workflowStep, and(eq(workflowStep.runId, workflowApproval.runId), eq(workflowStep.nodeId, workflowApproval.nodeId)))
    .where(and(eq(workflowApproval.userId, userId), statusWhere[status], afterCursor(workflowApproval.requestedAt, workflowApproval.id, cursor)))
    .orderBy(desc(workflowApproval.requestedAt), desc(workflowApproval.id))
    .limit(limit + 1);
  const { page, nextCursor } = pageOf(
    rows.map((r) => ({ ...r, createdAt: r.approval.requestedAt, id: r.approval.id })),
    limit,
  );
  const files = await gatedFiles(db, userId, page.flatMap((r) => r.inputFileIds ?? []));
  const items = page.map((r) => ({
    ...approvalView(r.approval),
    runId: r.approval.runId,
    workflowId: r.workflowId,
    workflowName: r.workflowName,
    nodeTitle: (r.stepType && getNodeKind(r.stepType)?.description.title) ?? r.stepType ?? r.approval.nodeId,
    files: (r.inputFileIds ?? []).flatMap((id) => files.get(id) ?? []),
  }));
  return { items, nextCursor };
}

/** The caller's files among `ids`, by id, in one query. */
async function gatedFiles(db: Db, userId: string, ids: string[]): Promise<Map<string, GatedFile>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db
    .select({ fileId: file.id, name: file.filename, sizeBytes: file.size, format: file.format })
    .from(file)
    .where(and(eq(file.userId, userId), inArray(file.id, unique)));
  return new Map(rows.map((f) => [f.fileId, f]));
}
