/** Workflow rows as the API shows them (contract section 7 shapes). */
import type { Delivery } from "@vektor/shared/schemas/notify";
import type { Approval, Run, Step } from "@vektor/shared/schemas/workflow";
import type { delivery, workflow, workflowApproval, workflowRun, workflowStep, workflowTemplate, workflowVersion } from "../../db/schema";
import { shownParams } from "../../workflows/notify/secret";

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** Never the notifySecret: paramsJson without it, and notifySecretSet. */
export function workflowView(w: typeof workflow.$inferSelect) {
  const { paramsJson, notifySecretSet } = shownParams(w.paramsJson, w.notifySecretSealed);
  return { id: w.id, name: w.name, graphJson: w.graphJson, paramsJson, notifySecretSet, versionId: w.versionId, createdAt: w.createdAt.toISOString(), updatedAt: w.updatedAt.toISOString() };
}

/** A version with its content; `currentId` is the workflow's current version. */
export function versionView(v: typeof workflowVersion.$inferSelect, currentId: string) {
  const { paramsJson, notifySecretSet } = shownParams(v.paramsJson, v.notifySecretSealed);
  return { versionId: v.id, createdAt: v.createdAt.toISOString(), name: v.name, current: v.id === currentId, graphJson: v.graphJson, paramsJson, notifySecretSet };
}

export function runView(r: typeof workflowRun.$inferSelect): Run {
  return {
    runId: r.id,
    workflowId: r.workflowId,
    versionId: r.versionId,
    status: r.status,
    trigger: r.trigger,
    createdAt: r.createdAt.toISOString(),
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    credits: r.credits,
    refunded: r.refunded,
    inputFileIds: r.inputFileIds,
    outputFileIds: r.outputFileIds,
    replayOf: r.replayOf,
    error: r.errorCode ? { code: r.errorCode, message: r.errorMessage ?? "" } : null,
  };
}

export function stepView(s: typeof workflowStep.$inferSelect): Step {
  return {
    nodeId: s.nodeId,
    parentNodeId: s.parentNodeId,
    type: s.type,
    status: s.status,
    startedAt: iso(s.startedAt),
    finishedAt: iso(s.finishedAt),
    inputFileIds: s.inputFileIds,
    outputFileIds: s.outputFileIds,
    error: s.errorCode ? { code: s.errorCode, message: s.errorMessage ?? "" } : null,
    attempts: s.attempts,
    jobIds: s.jobIds,
    logs: s.logs,
  };
}

export function approvalView(a: typeof workflowApproval.$inferSelect): Approval {
  return {
    nodeId: a.nodeId,
    status: a.status,
    requestedAt: a.requestedAt.toISOString(),
    expiresAt: a.expiresAt.toISOString(),
    decidedAt: iso(a.decidedAt),
    decision: a.decision,
    note: a.note,
    decidedBy: a.decidedBy,
  };
}

type TemplateLike = Pick<typeof workflowTemplate.$inferSelect, "id" | "name" | "description" | "graphJson" | "paramsJson"> & { createdAt?: Date | null; notifySecretSealed?: string | null };

/** Like a workflow: never the notifySecret. */
export function templateView(t: TemplateLike, builtIn: boolean) {
  const { paramsJson, notifySecretSet } = shownParams(t.paramsJson ?? null, t.notifySecretSealed);
  return { id: t.id, name: t.name, description: t.description, graphJson: t.graphJson, paramsJson, notifySecretSet, builtIn, createdAt: iso(t.createdAt) };
}

/** A completion notification with its attempts (never its body or the secret that signed it). */
export function deliveryView(d: typeof delivery.$inferSelect): Delivery {
  return {
    id: d.id,
    channel: d.channel,
    target: d.target,
    runStatus: d.runStatus,
    status: d.status,
    attempts: d.attempts,
    createdAt: d.createdAt.toISOString(),
    finishedAt: iso(d.finishedAt),
  };
}
