/**
 * Workflows by hand: CRUD with a version per change, validation, estimate, templates, and runs
 * (start, replay, retry, cancel, approve, detail, history). The engine (workflows/engine.ts)
 * does the transitions; this service checks the caller's input and takes the charge, in the
 * same transaction that creates the run, so a refused run creates and charges nothing.
 */
import { readJson, requireStorableText, tooDeepMessage } from "@vektor/shared/json";
import { fail, ServiceError } from "@vektor/shared/errors";
import { isTerminalRun } from "@vektor/shared/schemas/vocab";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Caller } from "../../auth/caller";
import type { Db, Tx } from "../../db/client";
import { file, workflow, workflowApproval, workflowRun, workflowStep, workflowTemplate, workflowVersion, type RunPlan } from "../../db/schema";
import { pageOf } from "../../http/cursor";
import { workflowReads } from "./queries";
import type { ReadCache } from "../../db/read-cache";

const RUN_DETAIL_TABLES = ["workflow_run", "workflow_step", "workflow_approval", "delivery"] as const;
/** Reads of a run's detail before one is answered as it is (see readRunDetail): a run changes a few times a second at most. */
const DETAIL_READS = 3;
import { newId } from "../../lib/ids";
import { debit } from "../../credits/ledger";
import { admitInputs, orThrow } from "../../tools/admission";
import type { ConfigService } from "../../config/service";
import { lockRun, type Engine, type RunRow, type StepRow } from "../../workflows/engine";
import type { DeliveryRow } from "../../workflows/notify/deliveries";
import { expandGraph } from "../../workflows/expand";
import { parseGraph } from "../../workflows/graph";
import { getNodeKind } from "../../workflows/nodes";
import { BUILTIN_TEMPLATES } from "../../workflows/templates";
import { splitNotifySecret, type NotifySecrets } from "../../workflows/notify/secret";
import { tooManyStepsMessage, validateGraph } from "../../workflows/validate";
import type { ApprovalFilter, Graph, ValidationIssue } from "@vektor/shared/schemas/workflow";
import { listApprovals, listRuns, type RunFilter } from "./lists";
import { approvalView, deliveryView, runView, stepView, templateView, versionView, workflowView } from "./view";
import type { HeldJobs } from "../../queue/held";

type WorkflowRow = typeof workflow.$inferSelect;
export type Trigger = "manual" | "webhook" | "schedule" | "watch" | "replay" | "mcp";
const LIMIT_CODES = new Set(["TOO_MANY_STEPS", "NESTING_TOO_DEEP"]);
const MISSING_CODES = new Set(["UNKNOWN_WORKFLOW"]);
const MAX_RUN_FILES = 1000;

/**
 * Called first in the transaction that creates a run (triggers record their fire or the hook's
 * signature under a unique key here); throwing rolls everything back, so a fire starts one run.
 */
export type RunClaim = (tx: Tx, runId: string) => Promise<void>;

export interface WorkflowBody {
  name?: string;
  graphJson?: string;
  paramsJson?: string | null;
}

export class WorkflowService {
  private readonly q;

  constructor(
    private readonly db: Db,
    private readonly config: ConfigService,
    private readonly engine: Engine,
    /** Seals notifySecret, which no row's params_json and no answer holds (workflows/notify/secret.ts). */
    private readonly notifySecrets: NotifySecrets,
    /** Keeps run details until a table they read changes (see read-cache.ts). */
    private readonly reads?: ReadCache,
    /** After a run stopped jobs, this process stops its own at once. */
    private readonly held?: Pick<HeldJobs, "stop">,
  ) {
    this.q = workflowReads(db);
  }

  // ---- definitions ----

  async validate(userId: string, graphJson: string, selfId?: string) {
    const maxSteps = await this.config.get("workflow.max_steps");
    const parsed = parseGraph(graphJson);
    if (!parsed.ok) return { ok: false, issues: parsed.issues, steps: 0, maxSteps };
    const result = await validateGraph(parsed.graph, { maxSteps, resolveWorkflow: this.resolver(userId), selfId });
    return { ok: result.ok, issues: result.issues, steps: result.steps, maxSteps };
  }

  /** The graph, valid, or the error its issues call for (422 for limits, 400 for the rest). */
  private async requireValid(userId: string, graphJson: string, selfId?: string): Promise<{ graph: Graph; steps: number }> {
    const v = await this.validate(userId, graphJson, selfId);
    if (v.ok) return { graph: (parseGraph(graphJson) as { graph: Graph }).graph, steps: v.steps };
    throw issuesError(v.issues);
  }

  /** The owner's workflows by id, parsed (another user's, or a broken one: null). */
  private resolver(userId: string) {
    return async (id: string): Promise<Graph | null> => {
      const [row] = await this.db
        .select({ graphJson: workflow.graphJson })
        .from(workflow)
        .where(and(eq(workflow.id, id), eq(workflow.userId, userId)));
      if (!row) return null;
      const parsed = parseGraph(row.graphJson);
      return parsed.ok ? parsed.graph : null;
    };
  }

  async create(userId: string, body: Required<Pick<WorkflowBody, "name" | "graphJson">> & WorkflowBody) {
    checkParamsJson(body.paramsJson);
    const id = newId("wf");
    await this.requireValid(userId, body.graphJson, id);
    const { paramsJson, secret } = splitNotifySecret(body.paramsJson ?? null);
    const content = { name: body.name, graphJson: body.graphJson, paramsJson, notifySecretSealed: secret ? await this.notifySecrets.sealForWorkflow(id, secret) : null };
    const versionId = newId("wfv");
    const row = await this.db.transaction(async (tx) => {
      const [w] = await tx.insert(workflow).values({ id, userId, ...content, versionId }).returning();
      await tx.insert(workflowVersion).values({ id: versionId, workflowId: id, ...content });
      return w;
    });
    return workflowView(row);
  }

  async owned(userId: string, id: string): Promise<WorkflowRow> {
    const [row] = await this.q.ownedWorkflow.execute({ id, userId });
    if (!row) throw fail.notFound("Workflow");
    return row;
  }

  async get(userId: string, id: string) {
    return workflowView(await this.owned(userId, id));
  }

  async list(userId: string, limit: number, cursor: string | undefined) {
    const rows = await this.q.workflowPages({ userId }, limit + 1, cursor);
    const { page, nextCursor } = pageOf(rows, limit);
    return { items: page.map(workflowView), nextCursor };
  }

  /**
   * Every change saves a new version with the whole content. A paramsJson replaces the run
   * options but keeps the sealed notifySecret unless it names one (a string sets it, null
   * removes it), so options read from GET can be edited and sent back; an empty one removes it.
   */
  async update(userId: string, id: string, body: WorkflowBody) {
    const current = await this.owned(userId, id);
    const next = { name: body.name ?? current.name, graphJson: body.graphJson ?? current.graphJson, paramsJson: current.paramsJson, notifySecretSealed: current.notifySecretSealed };
    if (body.paramsJson !== undefined) {
      checkParamsJson(body.paramsJson);
      const { paramsJson, secret } = splitNotifySecret(body.paramsJson);
      next.paramsJson = paramsJson;
      if (secret !== undefined) next.notifySecretSealed = secret ? await this.notifySecrets.sealForWorkflow(current.id, secret) : null;
    }
    if (body.graphJson !== undefined) await this.requireValid(userId, next.graphJson, id);
    return this.saveVersion(current.id, next);
  }

  private async saveVersion(id: string, next: { name: string; graphJson: string; paramsJson: string | null; notifySecretSealed: string | null }) {
    const versionId = newId("wfv");
    const row = await this.db.transaction(async (tx) => {
      await tx.insert(workflowVersion).values({ id: versionId, workflowId: id, ...next });
      const [w] = await tx.update(workflow).set({ ...next, versionId, updatedAt: new Date() }).where(eq(workflow.id, id)).returning();
      return w;
    });
    return workflowView(row);
  }

  async remove(userId: string, id: string) {
    const row = await this.owned(userId, id);
    await this.db.delete(workflow).where(eq(workflow.id, row.id));
    return { id: row.id, deleted: true };
  }

  async versions(userId: string, id: string) {
    const row = await this.owned(userId, id);
    const rows = await this.db.select().from(workflowVersion).where(eq(workflowVersion.workflowId, row.id)).orderBy(desc(workflowVersion.createdAt), desc(workflowVersion.id)).limit(500);
    return rows.map((v) => ({ versionId: v.id, createdAt: v.createdAt.toISOString(), name: v.name, current: v.id === row.versionId }));
  }

  /** One version with its content (paramsJson without the notifySecret, as every answer). */
  async version(userId: string, id: string, versionId: string) {
    const { row, v } = await this.ownedVersion(userId, id, versionId);
    return versionView(v, row.versionId);
  }

  /** The caller's workflow and one of its versions (404 for either missing or another user's). */
  private async ownedVersion(userId: string, id: string, versionId: string) {
    const row = await this.owned(userId, id);
    const [v] = await this.db
      .select()
      .from(workflowVersion)
      .where(and(eq(workflowVersion.id, versionId), eq(workflowVersion.workflowId, row.id)));
    if (!v) throw fail.notFound("Version");
    return { row, v };
  }

  /** A new version with the old one's content, its notifySecret included (validated again: the tools may have changed). */
  async restore(userId: string, id: string, versionId: string) {
    const { row, v } = await this.ownedVersion(userId, id, versionId);
    await this.requireValid(userId, v.graphJson, id);
    return this.saveVersion(row.id, { name: v.name, graphJson: v.graphJson, paramsJson: v.paramsJson, notifySecretSealed: v.notifySecretSealed });
  }

  /**
   * What a run would charge. More tool steps than workflow.max_steps is no reason to refuse: the
   * estimate is how the owner learns it (steps > maxSteps; the run itself is 422). Any other
   * issue (a sub-workflow gone, too deep, a tool removed) is answered as a run would be.
   */
  async estimate(userId: string, id: string) {
    const row = await this.owned(userId, id);
    const c = await this.config.all();
    const v = await this.validate(userId, row.graphJson, id);
    const blocking = v.issues.filter((i) => i.code !== "TOO_MANY_STEPS");
    if (blocking.length) throw issuesError(blocking);
    return { credits: c["workflow.base_credits"] + c["workflow.per_step_credits"] * v.steps, steps: v.steps, maxSteps: v.maxSteps };
  }

  // ---- templates ----

  async templates(userId: string) {
    const own = await this.db.select().from(workflowTemplate).where(eq(workflowTemplate.userId, userId)).orderBy(desc(workflowTemplate.createdAt)).limit(500);
    return [...BUILTIN_TEMPLATES, ...own.map((t) => templateView(t, false))];
  }

  async createTemplate(userId: string, body: { name: string; description?: string; graphJson: string; paramsJson?: string | null }) {
    checkParamsJson(body.paramsJson);
    await this.requireValid(userId, body.graphJson);
    const id = newId("tpl");
    const { paramsJson, secret } = splitNotifySecret(body.paramsJson ?? null);
    const notifySecretSealed = secret ? await this.notifySecrets.sealForTemplate(id, secret) : null;
    const [row] = await this.db.insert(workflowTemplate).values({ id, userId, name: body.name, description: body.description ?? "", graphJson: body.graphJson, paramsJson, notifySecretSealed }).returning();
    return templateView(row, false);
  }

  async deleteTemplate(userId: string, id: string) {
    if (BUILTIN_TEMPLATES.some((t) => t.id === id)) throw fail.forbidden("Built-in templates cannot be deleted");
    const gone = await this.db
      .delete(workflowTemplate)
      .where(and(eq(workflowTemplate.id, id), eq(workflowTemplate.userId, userId)))
      .returning({ id: workflowTemplate.id });
    if (!gone.length) throw fail.notFound("Template");
    return { id, deleted: true };
  }

  // ---- runs ----

  /**
   * Starts a run of the workflow's current version: graph re-validated and sub-workflows
   * resolved now (depth checked again), files checked, then charge, run and steps in one
   * transaction with the first transitions.
   */
  async run(caller: Pick<Caller, "id">, id: string, fileIds: string[], trigger: Trigger, replayOf: string | null = null, inTx?: RunClaim) {
    const c = await this.config.all();
    if (!c["workflow.enabled"]) throw new ServiceError("FEATURE_DISABLED", "Workflows are turned off");
    const wf = await this.owned(caller.id, id);
    const { graph } = await this.requireValid(caller.id, wf.graphJson, wf.id);
    const plan: RunPlan = await expandGraph(graph, this.resolver(caller.id), wf.id);
    const opSteps = plan.nodes.filter((n) => (getNodeKind(n.type)?.description.chargedSteps ?? 0) > 0);
    if (opSteps.length > c["workflow.max_steps"]) throw new ServiceError("LIMIT_EXCEEDED", tooManyStepsMessage(opSteps.length, c["workflow.max_steps"]));
    await this.requireUploaded(caller.id, fileIds);
    const perStep = c["workflow.per_step_credits"];
    const credits = c["workflow.base_credits"] + perStep * opSteps.length;
    const runId = newId("run");
    const charged = new Set(opSteps.map((n) => n.id));
    await this.db.transaction(async (tx) => {
      await inTx?.(tx, runId);
      await debit(tx, caller.id, credits, "workflow_run", runId);
      await tx.insert(workflowRun).values({ id: runId, workflowId: wf.id, userId: caller.id, versionId: wf.versionId, status: "running", trigger, plan, paramsJson: wf.paramsJson, notifySecretSealed: wf.notifySecretSealed, inputFileIds: fileIds, credits, perStepCredits: perStep, replayOf, startedAt: new Date() });
      await tx.insert(workflowStep).values(plan.nodes.map((n): typeof workflowStep.$inferInsert => ({ id: newId("st"), runId, nodeId: n.id, parentNodeId: n.parentId, type: n.type, status: "pending", charged: charged.has(n.id) })));
      const run = await lockRun(tx, runId);
      await this.engine.advance(tx, run!);
    });
    return { runId, credits };
  }

  private async requireUploaded(userId: string, ids: string[]) {
    if (ids.length > MAX_RUN_FILES) throw fail.validation(`fileIds takes at most ${MAX_RUN_FILES} ids`);
    if (new Set(ids).size !== ids.length) throw fail.validation("fileIds must not repeat an id");
    orThrow(await admitInputs(this.db, userId, ids), "notFound");
  }

  async ownedRun(userId: string, runId: string): Promise<RunRow> {
    const [row] = await this.q.ownedRun.execute({ id: runId, userId });
    if (!row) throw fail.notFound("Run");
    return row;
  }

  /** A run with its steps, approvals and deliveries: what every poll of a run reads. */
  runDetail(userId: string, runId: string) {
    const read = () => this.readRunDetail(userId, runId);
    return this.reads ? this.reads.read(`run:${userId}:${runId}`, RUN_DETAIL_TABLES, read) : read();
  }

  /**
   * The run, its steps, approvals and deliveries, then the run again, until the run did not
   * change across them (at most DETAIL_READS times). The statements are not one snapshot: a
   * transition committed between them (the run's end, then its completion webhook attempted)
   * gave an answer of a running run whose delivery was already blocked. A transition changes the
   * run's row (its change_seq) in the transaction that changes its steps and approvals; a
   * delivery changes alone, and a newer one still belongs to the run as read.
   */
  private async readRunDetail(userId: string, runId: string) {
    let run = await this.ownedRun(userId, runId);
    for (let read = 1; ; read++) {
      const [steps, approvals, deliveries] = await Promise.all([this.q.runSteps.execute({ runId: run.id }), this.q.runApprovals.execute({ runId: run.id }), this.q.runDeliveries.execute({ runId: run.id })]);
      const after = await this.ownedRun(userId, runId);
      if (after.changeSeq !== run.changeSeq && read < DETAIL_READS) {
        run = after;
        continue;
      }
      return this.runDetailView(run, steps, approvals, deliveries);
    }
  }

  private runDetailView(run: RunRow, steps: StepRow[], approvals: (typeof workflowApproval.$inferSelect)[], deliveries: DeliveryRow[]) {
    const order = new Map(run.plan.nodes.map((n, i) => [n.id, i]));
    steps.sort((a, b) => order.get(a.nodeId)! - order.get(b.nodeId)!);
    return { run: runView(run), steps: steps.map(stepView), approvals: approvals.map(approvalView), deliveries: deliveries.map(deliveryView) };
  }

  async runs(userId: string, id: string, limit: number, cursor: string | undefined) {
    const wf = await this.owned(userId, id);
    const rows = await this.q.runPages({ workflowId: wf.id }, limit + 1, cursor);
    const { page, nextCursor } = pageOf(rows, limit);
    return { items: page.map(runView), nextCursor };
  }

  /** Every run of the caller's, newest first; a `workflowId` that is not the caller's is a 404, like the workflow's own list. */
  async allRuns(userId: string, filter: RunFilter, limit: number, cursor: string | undefined) {
    if (filter.workflowId) await this.owned(userId, filter.workflowId);
    return listRuns(this.db, userId, filter, limit, cursor);
  }

  /** The approvals inbox: the approvals of the caller's runs (pending ones by default). */
  approvals(userId: string, status: ApprovalFilter, limit: number, cursor: string | undefined) {
    return listApprovals(this.db, userId, status, limit, cursor);
  }

  async retry(userId: string, runId: string) {
    const owned = await this.ownedRun(userId, runId);
    await this.db.transaction(async (tx) => {
      const run = (await lockRun(tx, owned.id))!;
      if (run.status !== "failed") throw fail.invalidState(`Only a failed run can be retried; this one is ${run.status}`);
      await this.engine.retry(tx, run);
    });
    return { runId: owned.id, credits: 0 };
  }

  async replay(caller: Pick<Caller, "id">, runId: string) {
    const original = await this.ownedRun(caller.id, runId);
    return { ...(await this.run(caller, original.workflowId, original.inputFileIds, "replay", original.id)), replayOf: original.id };
  }

  async cancel(userId: string, runId: string) {
    const owned = await this.ownedRun(userId, runId);
    const result = await this.db.transaction(async (tx) => {
      const run = (await lockRun(tx, owned.id))!;
      if (isTerminalRun(run.status)) throw fail.invalidState(`The run has already ended (${run.status})`);
      return this.engine.cancel(tx, run);
    });
    this.held?.stop(result.stopping);
    return { runId: owned.id, status: "cancelled" as const, refundedCredits: result.refunded };
  }

  /**
   * The owner decides the run's pending approval (the one at `nodeId`, or the oldest). One that
   * cannot be decided any more is refused saying why: already decided (how, when), expired, or
   * closed by the run's end.
   */
  async approve(userId: string, runId: string, body: { decision: "approved" | "rejected"; note?: string; nodeId?: string }) {
    const owned = await this.ownedRun(userId, runId);
    return this.db.transaction(async (tx) => {
      const run = (await lockRun(tx, owned.id))!;
      const [approval] = await tx
        .select()
        .from(workflowApproval)
        .where(and(eq(workflowApproval.runId, run.id), body.nodeId ? eq(workflowApproval.nodeId, body.nodeId) : undefined))
        // The pending one first (the oldest of them), else the latest: the one a refusal explains.
        .orderBy(sql`${workflowApproval.status} = 'pending' desc`, sql`case when ${workflowApproval.status} = 'pending' then ${workflowApproval.requestedAt} end asc`, desc(workflowApproval.requestedAt))
        .limit(1);
      const refusal = approvalRefusal(run, approval, body.nodeId);
      if (refusal) throw fail.invalidState(refusal);
      const [decided] = await tx
        .update(workflowApproval)
        .set({ status: body.decision, decision: body.decision, note: body.note ?? null, decidedAt: new Date(), decidedBy: userId })
        .where(eq(workflowApproval.id, approval!.id))
        .returning();
      const [step] = await tx.select().from(workflowStep).where(and(eq(workflowStep.runId, run.id), eq(workflowStep.nodeId, approval!.nodeId)));
      if (body.decision === "approved") await this.engine.completeStep(tx, run, step.id, step.attempts, step.inputFileIds);
      else await this.engine.failStep(tx, run, step.id, step.attempts, { code: "APPROVAL_REJECTED", message: body.note ? `Rejected: ${body.note}` : "Rejected" });
      return approvalView(decided);
    });
  }
}

/** Why `approval` (the run's pending one, else its latest) cannot be decided now; null when it can. */
function approvalRefusal(run: RunRow, approval: typeof workflowApproval.$inferSelect | undefined, nodeId: string | undefined): string | null {
  if (!approval) return nodeId ? `The run has no approval at node ${nodeId}` : "The run is not waiting for an approval";
  const at = `The approval at ${approval.nodeId}`;
  const when = approval.decidedAt?.toISOString() ?? "";
  const expired = (runFailed: string) => `${at} expired at ${approval.expiresAt.toISOString()}: nobody decided in time, so the run ${runFailed} with APPROVAL_TIMEOUT`;
  switch (approval.status) {
    case "approved":
    case "rejected":
      return `${at} was already decided: ${approval.status} at ${when}${approval.decidedBy === run.userId ? " by you" : ""}`;
    case "expired":
      return expired("failed");
    case "cancelled":
      return `${at} was closed when the run ended (${run.status}); nothing is waiting for a decision`;
  }
  if (isTerminalRun(run.status)) return `The run has already ended (${run.status})`;
  // Past its time but not yet closed by the timeout job, which is about to fail the run.
  if (approval.expiresAt.getTime() <= Date.now()) return expired("fails");
  return null;
}

/** paramsJson: a JSON object whose notifyUrl is http(s) and notifySecret at least 8 characters (or null: remove it). */
export function checkParamsJson(raw: string | null | undefined): void {
  if (raw === undefined || raw === null || raw === "") return;
  const read = readJson(raw, "paramsJson");
  if (!read.ok) throw fail.validation(read.tooDeep ? tooDeepMessage("paramsJson") : "paramsJson is not valid JSON");
  requireStorableText(raw, read.value, "paramsJson");
  const value = read.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw fail.validation("paramsJson must hold a JSON object");
  const { notifyUrl, notifySecret } = value as Record<string, unknown>;
  if (notifyUrl !== undefined && (typeof notifyUrl !== "string" || !/^https?:\/\/[^\s]+$/i.test(notifyUrl) || !URL.canParse(notifyUrl))) {
    throw fail.validation("paramsJson.notifyUrl must be an http or https URL");
  }
  if (notifySecret !== undefined && notifySecret !== null && (typeof notifySecret !== "string" || notifySecret.length < 8)) throw fail.validation("paramsJson.notifySecret must be a string of at least 8 characters (or null to remove it)");
}

/** Issues shown in an error message at most; POST /api/workflows/validate lists them all. */
const MAX_ISSUES_IN_MESSAGE = 5;

/**
 * The error a graph's issues call for. Its message is the issues' own messages, which say what
 * is wrong and what to change (the codes are for programs: POST /api/workflows/validate).
 */
function issuesError(issues: ValidationIssue[]): ServiceError {
  const shown = issues.slice(0, MAX_ISSUES_IN_MESSAGE).map((i) => i.message);
  const more = issues.length - shown.length;
  if (more > 0) shown.push(`${more} more problem${more === 1 ? "" : "s"} not shown here: POST /api/workflows/validate lists them all`);
  const all = (codes: Set<string>) => issues.length > 0 && issues.every((i) => codes.has(i.code));
  // Another user's workflow is answered like a missing one: its existence is not revealed.
  const code = all(LIMIT_CODES) ? "LIMIT_EXCEEDED" : all(MISSING_CODES) ? "NOT_FOUND" : "VALIDATION_ERROR";
  return new ServiceError(code, shown.join(". "));
}
