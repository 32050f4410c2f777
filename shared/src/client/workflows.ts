/**
 * Workflows (spec "Workflows", contract section 7): definitions, validation, versions,
 * templates, runs (start, wait, retry, replay, cancel, approve), triggers and the webhook.
 */
import type { HookBody, HookStarted, PutTriggerBody, PutTriggerResult, Trigger, TriggerDeleted } from "../schemas/trigger";
import type {
  Approval,
  ApprovalFilter,
  ApprovalPage,
  ApproveBody,
  CatalogNode,
  CreateWorkflowBody,
  Deleted,
  RunCancelled,
  RunDetail,
  RunEvent,
  RunPage,
  RunReplayed,
  RunStarted,
  RunStatus,
  Template,
  TemplateBody,
  UpdateWorkflowBody,
  ValidationResult,
  Workflow,
  WorkflowEstimate,
  WorkflowPage,
  WorkflowVersion,
  WorkflowVersionDetail,
} from "../schemas/workflow";
import { isTerminalRun, TERMINAL_RUN_STATUSES } from "../schemas/vocab-lists";
import { enc, qs, type PageQuery } from "./query";
import { resume, type ResumeOptions } from "./sse";
import type { Transport } from "./transport";
import { signWebhook } from "./webhook";

export interface RunWaitOptions {
  /** Stop at one of these statuses (default: a terminal one). */
  until?: RunStatus[];
  /** Answer the last detail after this long even if not there yet (default 120 s). */
  timeoutMs?: number;
}

/** Filters of the caller's runs list. */
export interface RunListQuery extends PageQuery {
  status?: RunStatus;
  workflowId?: string;
}

export interface ApprovalListQuery extends PageQuery {
  /** pending (default), decided, or all. */
  status?: ApprovalFilter;
}

const RUN_EVENT_NAMES: RunEvent["event"][] = ["run", "step"];
const isRunEnd = (e: RunEvent) => e.event === "run" && isTerminalRun(e.data.status);

export function workflowsApi(t: Transport) {
  const runDetail = (runId: string) => t.call<RunDetail>("GET", `/api/workflows/runs/${enc(runId)}`);
  /** Polls the run until its status is one of `until` (default: a terminal one) or `timeoutMs` passes; returns the last detail. */
  const waitFor = async (runId: string, opts: RunWaitOptions = {}): Promise<RunDetail> => {
    const until = new Set<string>(opts.until ?? TERMINAL_RUN_STATUSES);
    const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
    for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
      const detail = await runDetail(runId);
      if (until.has(detail.run.status) || Date.now() >= deadline) return detail;
      await new Promise((r) => setTimeout(r, delay));
    }
  };
  const run = (id: string, fileIds: string[]) => t.call<RunStarted>("POST", `/api/workflows/${enc(id)}/run`, { fileIds });
  return {
    validate: (graphJson: string) => t.call<ValidationResult>("POST", "/api/workflows/validate", { graphJson }),
    catalog: () => t.call<CatalogNode[]>("GET", "/api/workflows/catalog"),
    list: (q: PageQuery = {}) => t.call<WorkflowPage>("GET", `/api/workflows${qs({ ...q })}`),
    create: (b: CreateWorkflowBody) => t.call<Workflow>("POST", "/api/workflows", b),
    get: (id: string) => t.call<Workflow>("GET", `/api/workflows/${enc(id)}`),
    /** Saves a new version. */
    update: (id: string, b: UpdateWorkflowBody) => t.call<Workflow>("PUT", `/api/workflows/${enc(id)}`, b),
    delete: (id: string) => t.call<Deleted>("DELETE", `/api/workflows/${enc(id)}`),
    estimate: (id: string) => t.call<WorkflowEstimate>("POST", `/api/workflows/${enc(id)}/estimate`, {}),
    versions: (id: string) => t.call<WorkflowVersion[]>("GET", `/api/workflows/${enc(id)}/versions`),
    /** One version with its content (read-only). */
    version: (id: string, versionId: string) => t.call<WorkflowVersionDetail>("GET", `/api/workflows/${enc(id)}/versions/${enc(versionId)}`),
    restore: (id: string, versionId: string) => t.call<Workflow>("POST", `/api/workflows/${enc(id)}/versions/${enc(versionId)}/restore`, {}),
    run,
    /** Starts a run and waits for it (see waitFor); answers the run's last detail. */
    runAndWait: async (id: string, fileIds: string[], opts: RunWaitOptions = {}) => waitFor((await run(id, fileIds)).runId, opts),
    /** A workflow's runs, newest first; `runs.list` lists every workflow's. */
    runs: Object.assign((id: string, q: PageQuery = {}) => t.call<RunPage>("GET", `/api/workflows/${enc(id)}/runs${qs({ ...q })}`), {
      /** All the caller's runs, newest first, each with workflowName; filter by status and workflow. */
      list: (q: RunListQuery = {}) => t.call<RunPage>("GET", `/api/workflows/runs${qs({ ...q })}`),
    }),
    approvals: {
      /** The approvals inbox: approvals of the caller's runs (pending ones by default), each with its run, node and gated files. */
      list: (q: ApprovalListQuery = {}) => t.call<ApprovalPage>("GET", `/api/workflows/approvals${qs({ ...q })}`),
    },
    /**
     * The run's changes as they happen: `run` and `step` events, each with an id, the run and all
     * its steps first (or, with `lastEventId`, only what changed after it), ending after the run
     * ended. A dropped connection resumes where it left off:
     * `for await (const e of client.workflows.runEvents(runId)) ...`.
     */
    runEvents: (runId: string, opts: ResumeOptions = {}) => resume<RunEvent>(t, `/api/workflows/runs/${enc(runId)}/events`, RUN_EVENT_NAMES, isRunEnd, opts),
    templates: {
      list: () => t.call<Template[]>("GET", "/api/workflows/templates"),
      create: (b: TemplateBody) => t.call<Template>("POST", "/api/workflows/templates", b),
      delete: (id: string) => t.call<Deleted>("DELETE", `/api/workflows/templates/${enc(id)}`),
    },
    triggers: {
      list: (id: string) => t.call<Trigger[]>("GET", `/api/workflows/${enc(id)}/triggers`),
      /** Creates or replaces the trigger of `type`; the answer's secret is shown only here. */
      put: (id: string, b: PutTriggerBody) => t.call<PutTriggerResult>("PUT", `/api/workflows/${enc(id)}/triggers`, b),
      delete: (id: string, triggerId: string) => t.call<TriggerDeleted>("DELETE", `/api/workflows/${enc(id)}/triggers/${enc(triggerId)}`),
    },
    /**
     * Calls the workflow's hook as a third party would. With `signWith` (the webhook trigger's
     * secret) the request is signed (X-Service-Timestamp, default now, and X-Service-Signature);
     * without it, it is the legacy form, whose body carries `secret` itself.
     */
    hook: async (id: string, body: HookBody, opts: { signWith?: string; timestamp?: number } = {}) => {
      const raw = JSON.stringify(body);
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (opts.signWith !== undefined) {
        const ts = opts.timestamp ?? Math.floor(Date.now() / 1000);
        headers["x-service-timestamp"] = String(ts);
        headers["x-service-signature"] = await signWebhook(opts.signWith, ts, raw);
      }
      const res = await t.fetchOk(`/api/workflows/${enc(id)}/hook`, { method: "POST", headers, body: raw });
      return ((await res.json()) as { data: HookStarted }).data;
    },
    runDetail,
    waitFor,
    /** Re-runs a failed run's failed steps; free. */
    retry: (runId: string) => t.call<RunStarted>("POST", `/api/workflows/runs/${enc(runId)}/retry`, {}),
    /** A new run with the same inputs on the current version; charged anew. */
    replay: (runId: string) => t.call<RunReplayed>("POST", `/api/workflows/runs/${enc(runId)}/replay`, {}),
    cancel: (runId: string) => t.call<RunCancelled>("POST", `/api/workflows/runs/${enc(runId)}/cancel`, {}),
    approve: (runId: string, b: ApproveBody) => t.call<Approval>("POST", `/api/workflows/runs/${enc(runId)}/approve`, b),
  };
}
