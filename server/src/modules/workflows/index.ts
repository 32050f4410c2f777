/** Workflow routes (spec "Workflows", contract section 7): definitions, versions, templates, runs, approvals. */
import {
  ApproveBody,
  CatalogNode,
  CreateWorkflowBody,
  Deleted,
  RunBody,
  RunCancelled,
  RunDetail,
  RunPage,
  RunReplayed,
  RunStarted,
  Template,
  TemplateBody,
  UpdateWorkflowBody,
  ValidateBody,
  ValidationResult,
  Workflow,
  WorkflowEstimate,
  WorkflowPage,
  WorkflowVersion,
  WorkflowVersionDetail,
  Approval,
  ApprovalListQuery,
  ApprovalPage,
  RunListQuery,
} from "@vektor/shared/schemas/workflow";
import { ListQuery } from "@vektor/shared/schemas/file";
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { jsonBody } from "../../http/core";
import { authMacro, routeDocs } from "../../http/docs";
import { ok } from "../../http/envelope";
import { parseLimit } from "../../http/query";
import { sseResponse } from "../../http/sse";
import { fail } from "@vektor/shared/errors";
import type { Services } from "../../services";
import { catalog } from "../../workflows/nodes";
import { NOTIFY_DESCRIPTION, withTriggerDocs } from "../../workflows/triggers/docs";
import type { RunChanges, RunEventHub } from "./events";
import type { WorkflowService } from "./service";

const Id = Type.String({ minLength: 1, maxLength: 100 });
const IdParam = Type.Object({ id: Id });
const RunParam = Type.Object({ runId: Id });

const NOTIFY_SECRET_RULES =
  "notifySecret is write-only: it is stored sealed (AES-256-GCM under a key derived from the server secret, bound to this workflow) and no answer returns it; answers carry paramsJson without it and notifySecretSet. A run signs its completion webhook with the secret set when it started.";

const RUN_RULES =
  "Charge: workflow.base_credits + workflow.per_step_credits x tool steps (op.<slug> nodes, those of sub-workflows included; op.workflow itself is not charged), taken atomically with the run's creation: 402 INSUFFICIENT_CREDITS and nothing created when short. Every file must be the caller's (404 otherwise) and UPLOADED (409). workflow.enabled off: 403 FEATURE_DISABLED; more tool steps than workflow.max_steps: 422 LIMIT_EXCEEDED, nothing charged. A run with no files succeeds with empty outputs.";

const RUN_EVENTS_DESCRIPTION =
  "text/event-stream. `event: run` carries the run (the Run schema), `event: step` one step that changed (the Step schema: nodeId, status, attempts, error, files, logs). Every event has an `id:`, growing with every change of the run. A first connection gets the run and all its steps (in id order); a reconnection with the header Last-Event-ID gets exactly the changes after that id, none lost, none repeated (a step that changed twice since is sent once, as it is now). Changes made by any server process show up (the stream reads the database when a run or step table changes, and polls as a fallback). A comment heartbeat keeps the connection alive (SSE_HEARTBEAT_MS, 15 s by default). The stream ends after the events that reach a terminal run status (succeeded, failed, cancelled); on a run that already ended it sends what is newer than Last-Event-ID and ends, or answers 204 No Content when nothing is (which stops a browser's EventSource from reconnecting). A server process that stops ends its streams with `event: reconnect` (no id): connect again with Last-Event-ID. Another user's or an unknown run: 404 before the stream starts; a Last-Event-ID that is not a number: 400.";

/** Last-Event-ID: the id of the last event the client has (0: none). */
function lastEventId(raw: string | null): number {
  if (raw === null || raw.trim() === "") return 0;
  if (!/^[0-9]{1,15}$/.test(raw.trim())) throw fail.validation("Last-Event-ID must be the id of an event of this stream");
  return Number(raw.trim());
}

/** The run's stream: what `first` holds at once, then each later change, ended after the run's end. */
function runEventStream(hub: RunEventHub, runId: string, after: number, first: RunChanges, heartbeatMs: number, abort: AbortSignal): Response {
  return sseResponse(
    ({ send, close, reconnect }) => {
      const deliver = (changes: RunChanges) => {
        for (const e of changes.events) send(e);
        if (changes.ended) close();
      };
      deliver(first);
      const last = first.events.at(-1);
      return hub.subscribe(runId, last ? Number(last.id) : after, deliver, reconnect);
    },
    heartbeatMs,
    abort,
  );
}

export interface RunEventDeps {
  hub: RunEventHub;
  heartbeatMs: number;
}

export function workflowsModule(s: Pick<Services, "callers">, w: WorkflowService, events: RunEventDeps) {
  const { doc, docJson } = routeDocs();
  const tags = ["Workflows"];
  const runTags = ["Workflow runs"];
  return new Elysia({ prefix: "/api/workflows" })
    .use(authMacro(s.callers))
    .use(jsonBody)
    .post("/validate", async ({ caller, body }) => ok(await w.validate(caller.id, body.graphJson)), {
      ...docJson(ValidateBody, {
        summary: "Validate a graph",
        description:
          "Checks structure (INVALID_GRAPH, TOO_MANY_NODES), DUPLICATE_NODE_ID, DANGLING_EDGE, UNKNOWN_NODE_TYPE, CYCLE (self-loops, and reference cycles between workflows), NO_SOURCE, TOO_MANY_STEPS (tool steps, sub-workflows included, against workflow.max_steps), IO_MISMATCH (formats along every edge), INVALID_PARAMS (each node's params against its kind's schema), UNKNOWN_WORKFLOW (op.workflow naming no workflow of the caller's) and NESTING_TOO_DEEP (more than 3 levels of op.workflow). Always 200 with { ok, issues, steps, maxSteps }; a graphJson over 1 MB is a 400.",
        tags,
        auth: "api",
        data: ValidationResult,
      }),
    })
    .get("/catalog", async () => ok(withTriggerDocs(catalog())), doc({ summary: "Every node kind a workflow can use, with its params schema and formats", description: "op.<slug> nodes come from the tool registry (the same one as /api/config/tools-index). The trigger.* nodes also document how runs start (`triggers`: manual and watch at trigger.manual, the signed hook with its headers and body at trigger.webhook, cron at trigger.schedule) and what a run sends when it ends (`notifications`: the outbound completion webhook's headers and bodies, the e-mail).", tags, auth: "api", data: Type.Array(CatalogNode) }))
    .get("/templates", async ({ caller }) => ok(await w.templates(caller.id)), doc({ summary: "Built-in templates and the caller's own", description: "Built-in ids start with builtin:.", tags, auth: "api", data: Type.Array(Template) }))
    .post("/templates", async ({ caller, body }) => ok(await w.createTemplate(caller.id, body)), {
      ...docJson(TemplateBody, { summary: "Save a personal template", description: "The graph is validated like a workflow's, paramsJson checked as on create. A notifySecret in it is kept sealed and never returned (notifySecretSet), as a workflow's: a workflow made from the template's paramsJson has none until one is set.", tags, auth: "api", errors: ["LIMIT_EXCEEDED", "NOT_FOUND"], data: Template }),
    })
    .delete("/templates/:id", async ({ caller, params }) => ok(await w.deleteTemplate(caller.id, params.id)), {
      params: IdParam,
      ...doc({ summary: "Delete a personal template", description: "A built-in one: 403 FORBIDDEN; another user's: 404.", tags, auth: "api", errors: ["NOT_FOUND", "FORBIDDEN"], data: Deleted }),
    })
    .get("", async ({ caller, query }) => ok(await w.list(caller.id, parseLimit(query.limit, 50, 200), query.cursor)), {
      query: ListQuery,
      ...doc({ summary: "The caller's workflows, newest first", tags, auth: "api", data: WorkflowPage }),
    })
    .post("", async ({ caller, body }) => ok(await w.create(caller.id, body)), {
      ...docJson(CreateWorkflowBody, {
        summary: "Create a workflow",
        description: `graphJson is validated (400 VALIDATION_ERROR naming the issues; 422 LIMIT_EXCEEDED for too many steps or too deep nesting; 404 for an op.workflow naming no workflow of the caller's). paramsJson, when given, is a JSON object: notifyUrl an http(s) URL, notifySecret at least 8 characters (400 VALIDATION_ERROR otherwise). ${NOTIFY_SECRET_RULES}`,
        tags,
        auth: "api",
        errors: ["LIMIT_EXCEEDED", "NOT_FOUND"],
        data: Workflow,
      }),
    })
    .get("/runs", async ({ caller, query }) => ok(await w.allRuns(caller.id, { status: query.status, workflowId: query.workflowId }, parseLimit(query.limit, 50, 200), query.cursor)), {
      query: RunListQuery,
      ...doc({
        summary: "All the caller's runs, newest first (not in the spec)",
        description: "Every workflow's runs, each with workflowName (the workflow's current name). status keeps the runs with that status; workflowId those of one workflow (another user's or an unknown workflow: 404, as for GET /api/workflows/{id}/runs). Paged like every list: pass nextCursor as cursor.",
        tags: runTags,
        auth: "api",
        errors: ["NOT_FOUND"],
        data: RunPage,
      }),
    })
    .get("/approvals", async ({ caller, query }) => ok(await w.approvals(caller.id, query.status ?? "pending", parseLimit(query.limit, 50, 200), query.cursor)), {
      query: ApprovalListQuery,
      ...doc({
        summary: "The approvals inbox: approvals of the caller's runs, newest request first (not in the spec)",
        description: "status: pending (default: waiting for the caller's decision), decided (approved, rejected, expired or cancelled) or all. Each item is the approval (nodeId, status, requestedAt, expiresAt, decidedAt, decision, note, decidedBy) with its runId, workflowId, workflowName, nodeTitle and the files it gates: the approval step's input files (fileId, name, sizeBytes, format), those deleted since left out. Decide one with POST /api/workflows/runs/{runId}/approve and its nodeId.",
        tags: runTags,
        auth: "api",
        data: ApprovalPage,
      }),
    })
    .get(
      "/runs/:runId/events",
      async ({ caller, params, request }) => {
        const run = await w.ownedRun(caller.id, params.runId);
        const after = lastEventId(request.headers.get("last-event-id"));
        const first = await events.hub.read(run.id, after);
        if (!first) throw fail.notFound("Run");
        // Nothing newer and nothing to come: 204 tells an EventSource to stop reconnecting.
        if (first.ended && !first.events.length) return new Response(null, { status: 204 });
        return runEventStream(events.hub, run.id, after, first, events.heartbeatMs, request.signal);
      },
      {
        params: RunParam,
        ...doc({ summary: "A run's step and run changes as server-sent events (not in the spec)", description: RUN_EVENTS_DESCRIPTION, tags: runTags, auth: "api", errors: ["NOT_FOUND"], raw: { description: "Server-sent events: `run` (Run) and `step` (Step), each with an id", contentType: "text/event-stream" } }),
      },
    )
    .get("/runs/:runId", async ({ caller, params }) => ok(await w.runDetail(caller.id, params.runId)), {
      params: RunParam,
      ...doc({ summary: "A run: its status, steps (nested ones name their op.workflow node as parentNodeId), approvals and completion deliveries", description: `deliveries: one per terminal moment and channel (webhook to paramsJson.notifyUrl, email to the owner), each with every attempt's time, outcome, status code or error. ${NOTIFY_DESCRIPTION}`, tags: runTags, auth: "api", errors: ["NOT_FOUND"], data: RunDetail }),
    })
    .post("/runs/:runId/retry", async ({ caller, params }) => ok(await w.retry(caller.id, params.runId)), {
      params: RunParam,
      ...doc({ summary: "Retry a failed run", description: "Re-runs the failed (and skipped) steps of the same run on the version it started with, and continues; free. A run that is not failed: 409 INVALID_STATE.", tags: runTags, auth: "api", errors: ["NOT_FOUND", "INVALID_STATE"], data: RunStarted }),
    })
    .post("/runs/:runId/replay", async ({ caller, params }) => ok(await w.replay(caller, params.runId)), {
      params: RunParam,
      ...doc({ summary: "Replay a run: a new run with the same input files on the workflow's current version", description: `Charged anew; trigger replay; replayOf names the original. ${RUN_RULES}`, tags: runTags, auth: "api", errors: ["NOT_FOUND", "INVALID_STATE", "INSUFFICIENT_CREDITS", "LIMIT_EXCEEDED", "FEATURE_DISABLED"], data: RunReplayed }),
    })
    .post("/runs/:runId/cancel", async ({ caller, params }) => ok(await w.cancel(caller.id, params.runId)), {
      params: RunParam,
      ...doc({
        summary: "Cancel a run (not in the spec)",
        description: "The run ends cancelled; queued steps are dropped, running tool jobs are stopped, and the per-step credits of tool steps that never started are refunded. A run that already ended: 409 INVALID_STATE.",
        tags: runTags,
        auth: "api",
        errors: ["NOT_FOUND", "INVALID_STATE"],
        data: RunCancelled,
      }),
    })
    .post("/runs/:runId/approve", async ({ caller, params, body }) => ok(await w.approve(caller.id, params.runId, body)), {
      params: RunParam,
      ...docJson(ApproveBody, {
        summary: "Decide a pending approval",
        description: "Only the run's owner decides. approved: the run goes on with the approval step's inputs; rejected: the run fails with APPROVAL_REJECTED. nodeId picks one of several pending approvals (default: the oldest). One that cannot be decided is 409 INVALID_STATE with a message saying why: already decided (approved or rejected, when, by whom), expired (nobody decided before expiresAt: the run fails with APPROVAL_TIMEOUT), closed because the run ended, or no approval at all.",
        tags: runTags,
        auth: "api",
        errors: ["NOT_FOUND", "INVALID_STATE"],
        data: Approval,
      }),
    })
    .get("/:id", async ({ caller, params }) => ok(await w.get(caller.id, params.id)), { params: IdParam, ...doc({ summary: "A workflow", tags, auth: "api", errors: ["NOT_FOUND"], data: Workflow }) })
    .put("/:id", async ({ caller, params, body }) => ok(await w.update(caller.id, params.id, body)), {
      params: IdParam,
      ...docJson(UpdateWorkflowBody, {
        summary: "Change a workflow (saves a new version)",
        description: `Body: { name?, graphJson?, paramsJson? }; checked as on create. A paramsJson replaces the run options, except notifySecret: a paramsJson without the key keeps the secret already set (so paramsJson as GET returns it can be edited and sent back), "notifySecret": null removes it, a string replaces it; an empty paramsJson ("") removes every option, the secret included. ${NOTIFY_SECRET_RULES}`,
        tags,
        auth: "api",
        errors: ["NOT_FOUND", "LIMIT_EXCEEDED"],
        data: Workflow,
      }),
    })
    .delete("/:id", async ({ caller, params }) => ok(await w.remove(caller.id, params.id)), { params: IdParam, ...doc({ summary: "Delete a workflow, its versions and runs", tags, auth: "api", errors: ["NOT_FOUND"], data: Deleted }) })
    .post("/:id/estimate", async ({ caller, params }) => ok(await w.estimate(caller.id, params.id)), {
      params: IdParam,
      ...doc({
        summary: "What a run would cost",
        description:
          "steps counts tool steps (op.<slug>), those of referenced sub-workflows included; credits = workflow.base_credits + workflow.per_step_credits x steps. steps above maxSteps (workflow.max_steps was lowered after the workflow was saved, or a sub-workflow grew) is still answered 200: it is how to learn that a run would be refused (422 LIMIT_EXCEEDED, nothing charged). Anything else that would stop a run is answered as the run would: a sub-workflow that no longer exists 404, sub-workflows nested too deep 422 LIMIT_EXCEEDED, other issues 400 VALIDATION_ERROR (POST /api/workflows/validate lists them).",
        tags,
        auth: "api",
        errors: ["NOT_FOUND", "LIMIT_EXCEEDED"],
        data: WorkflowEstimate,
      }),
    })
    .post("/:id/run", async ({ caller, params, body }) => ok(await w.run(caller, params.id, body.fileIds, "manual")), {
      params: IdParam,
      ...docJson(RunBody, { summary: "Run a workflow on files", description: RUN_RULES, tags: runTags, auth: "api", errors: ["NOT_FOUND", "INVALID_STATE", "INSUFFICIENT_CREDITS", "LIMIT_EXCEEDED", "FEATURE_DISABLED"], data: RunStarted }),
    })
    .get("/:id/runs", async ({ caller, params, query }) => ok(await w.runs(caller.id, params.id, parseLimit(query.limit, 50, 200), query.cursor)), {
      params: IdParam,
      query: ListQuery,
      ...doc({ summary: "A workflow's runs, newest first (not in the spec)", tags: runTags, auth: "api", errors: ["NOT_FOUND"], data: RunPage }),
    })
    .get("/:id/versions", async ({ caller, params }) => ok(await w.versions(caller.id, params.id)), { params: IdParam, ...doc({ summary: "A workflow's versions, newest first", tags, auth: "api", errors: ["NOT_FOUND"], data: Type.Array(WorkflowVersion) }) })
    .get("/:id/versions/:versionId", async ({ caller, params }) => ok(await w.version(caller.id, params.id, params.versionId)), {
      params: Type.Object({ id: Id, versionId: Id }),
      ...doc({ summary: "One version with its content (not in the spec)", description: "Read-only: name, graphJson and paramsJson (without notifySecret) as saved in that version, for viewing and comparing versions.", tags, auth: "api", errors: ["NOT_FOUND"], data: WorkflowVersionDetail }),
    })
    .post("/:id/versions/:versionId/restore", async ({ caller, params }) => ok(await w.restore(caller.id, params.id, params.versionId)), {
      params: Type.Object({ id: Id, versionId: Id }),
      ...doc({ summary: "Restore a version (saves a new version with its content)", description: "The version's name, graphJson and paramsJson come back, with the notifySecret that was set in that version (or none).", tags, auth: "api", errors: ["NOT_FOUND", "LIMIT_EXCEEDED"], data: Workflow }),
    });
}
