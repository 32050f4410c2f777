/**
 * Workflow models (spec "Graph model" and "Workflows", contract section 7): the graph inside
 * `graphJson`, validation results, workflows and their versions, templates, runs, steps,
 * approvals and the node catalog. Request bodies refuse unknown fields; the graph's nodes and
 * edges keep them, because the editor (xyflow) stores `position`, `selected`, ... on them.
 */
import { Type } from "@sinclair/typebox";
import { Page } from "./envelope";
import { Delivery } from "./notify";
import { NotificationDoc, TriggerDoc } from "./trigger-docs";
import { ApprovalStatus, Decision, literals, NodeCategory, RunStatus, RunTrigger, StepStatus } from "./vocab";

export { ApprovalStatus, Decision, NodeCategory, RunStatus, RunTrigger, StepStatus } from "./vocab";

const DateTime = (options: { description?: string } = {}) => Type.String({ format: "date-time", ...options });
const NullableDateTime = Type.Union([DateTime(), Type.Null()]);
const FormatList = Type.Array(Type.String({ maxLength: 50 }), { maxItems: 100, description: "format ids (pdf, step, geojson, ...)" });

/** The largest `graphJson` accepted (characters). */
export const MAX_GRAPH_JSON = 1_000_000;
/** The most nodes and edges one graph may hold (issue TOO_MANY_NODES beyond). */
export const MAX_GRAPH_NODES = 500;
export const MAX_GRAPH_EDGES = 2000;

const GraphJson = Type.String({ maxLength: MAX_GRAPH_JSON, description: "the graph `{ nodes, edges }` as a JSON string" });
const ParamsJson = Type.String({
  maxLength: 100_000,
  description:
    "run options as a JSON string: `notifyUrl` (http/https), `notifySecret` (8+ characters; null removes it). notifySecret is write-only: stored sealed (AES-256-GCM under a key derived from the server secret) and never returned; answers carry paramsJson without it and `notifySecretSet`",
});
/** paramsJson as answers carry it: never with notifySecret (see notifySecretSet). */
const ShownParamsJson = Type.Union([Type.String(), Type.Null()], { description: "the run options as saved, without notifySecret (write-only; see notifySecretSet)" });
const NotifySecretSet = Type.Boolean({ description: "whether a notifySecret is set (it signs the completion webhooks; never returned)" });

/** A node of the graph. Fields other than these (position, width, selected, ...) are allowed and ignored. */
export const GraphNode = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, pattern: "^[^/]+$", description: "unique in the graph; no `/` (sub-workflow steps are named `<op.workflow node id>/<child id>`)" }),
  type: Type.String({ minLength: 1, maxLength: 100, description: "the node kind: trigger.manual, source.upload, op.pdf.compress, logic.filter, sink.zip, ..." }),
  data: Type.Object({
    type: Type.Optional(Type.String({ maxLength: 100, description: "when present, must equal the node's `type`" })),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "checked against the kind's params schema (see the catalog); defaults applied" })),
    io: Type.Optional(
      Type.Object({
        accepts: Type.Optional(FormatList),
        produces: Type.Optional(FormatList),
      }, { description: "narrows the kind's own accepts/produces (must be a subset of them)" }),
    ),
  }),
});
export type GraphNode = typeof GraphNode.static;

/** An edge: the target's inputs include the source's outputs. Other fields (id, sourceHandle, ...) are ignored. */
export const GraphEdge = Type.Object({
  source: Type.String({ minLength: 1, maxLength: 100 }),
  target: Type.String({ minLength: 1, maxLength: 100 }),
  id: Type.Optional(Type.String({ maxLength: 200 })),
});
export type GraphEdge = typeof GraphEdge.static;

/** The content of `graphJson`. */
export const Graph = Type.Object({
  nodes: Type.Array(GraphNode, { maxItems: MAX_GRAPH_NODES }),
  edges: Type.Array(GraphEdge, { maxItems: MAX_GRAPH_EDGES }),
});
export type Graph = typeof Graph.static;

/** Every code a validation issue can carry. */
export const VALIDATION_ISSUE_CODES = [
  "INVALID_GRAPH",
  "TOO_MANY_NODES",
  "DUPLICATE_NODE_ID",
  "DANGLING_EDGE",
  "CYCLE",
  "UNKNOWN_NODE_TYPE",
  "NO_SOURCE",
  "TOO_MANY_STEPS",
  "IO_MISMATCH",
  "INVALID_PARAMS",
  "UNKNOWN_WORKFLOW",
  "NESTING_TOO_DEEP",
] as const;
export type ValidationIssueCode = (typeof VALIDATION_ISSUE_CODES)[number];

/** One problem found in a graph; `nodeId` names the node it concerns (absent for whole-graph issues). */
export const ValidationIssue = Type.Object({
  code: Type.Union(VALIDATION_ISSUE_CODES.map((c) => Type.Literal(c))),
  message: Type.String(),
  nodeId: Type.Optional(Type.String()),
});
export type ValidationIssue = typeof ValidationIssue.static;

export const ValidationResult = Type.Object({
  ok: Type.Boolean({ description: "true when there is no issue" }),
  issues: Type.Array(ValidationIssue),
  steps: Type.Integer({ description: "op steps a run charges for, sub-workflows included" }),
  maxSteps: Type.Integer({ description: "workflow.max_steps" }),
});
export type ValidationResult = typeof ValidationResult.static;

export const ValidateBody = Type.Object({ graphJson: GraphJson }, { additionalProperties: false });
export type ValidateBody = typeof ValidateBody.static;

const Name = Type.String({ minLength: 1, maxLength: 200 });

export const CreateWorkflowBody = Type.Object(
  { name: Name, graphJson: GraphJson, paramsJson: Type.Optional(ParamsJson) },
  { additionalProperties: false },
);
export type CreateWorkflowBody = typeof CreateWorkflowBody.static;

/** Any subset of the fields; every accepted update saves a new version. */
export const UpdateWorkflowBody = Type.Object(
  { name: Type.Optional(Name), graphJson: Type.Optional(GraphJson), paramsJson: Type.Optional(ParamsJson) },
  { additionalProperties: false },
);
export type UpdateWorkflowBody = typeof UpdateWorkflowBody.static;

export const Workflow = Type.Object({
  id: Type.String(),
  name: Type.String(),
  graphJson: Type.String(),
  paramsJson: ShownParamsJson,
  notifySecretSet: NotifySecretSet,
  versionId: Type.String({ description: "the current version" }),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type Workflow = typeof Workflow.static;

export const WorkflowEstimate = Type.Object({
  credits: Type.Integer({ description: "workflow.base_credits + workflow.per_step_credits x steps" }),
  steps: Type.Integer({ description: "op steps, sub-workflows included; above maxSteps a run is refused (422 LIMIT_EXCEEDED, nothing charged)" }),
  maxSteps: Type.Integer({ description: "workflow.max_steps" }),
});
export type WorkflowEstimate = typeof WorkflowEstimate.static;

export const WorkflowVersion = Type.Object({ versionId: Type.String(), createdAt: DateTime(), name: Type.String(), current: Type.Optional(Type.Boolean({ description: "the workflow's current version" })) });
export type WorkflowVersion = typeof WorkflowVersion.static;

/** One version with its content, read-only (the editor views and compares versions with it). */
export const WorkflowVersionDetail = Type.Object({
  versionId: Type.String(),
  createdAt: DateTime(),
  name: Type.String(),
  current: Type.Boolean({ description: "the workflow's current version" }),
  graphJson: Type.String(),
  paramsJson: ShownParamsJson,
  notifySecretSet: NotifySecretSet,
});
export type WorkflowVersionDetail = typeof WorkflowVersionDetail.static;

export const Template = Type.Object({
  id: Type.String({ description: "built-in templates: `builtin:<slug>`" }),
  name: Type.String(),
  description: Type.String(),
  graphJson: Type.String(),
  paramsJson: ShownParamsJson,
  notifySecretSet: NotifySecretSet,
  builtIn: Type.Boolean({ description: "built-in templates cannot be deleted" }),
  createdAt: DateTime(),
});
export type Template = typeof Template.static;

export const TemplateBody = Type.Object(
  { name: Name, description: Type.Optional(Type.String({ maxLength: 2000 })), graphJson: GraphJson, paramsJson: Type.Optional(ParamsJson) },
  { additionalProperties: false },
);
export type TemplateBody = typeof TemplateBody.static;

export const RunBody = Type.Object(
  { fileIds: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 1000, description: "UPLOADED files of the caller; may be empty" }) },
  { additionalProperties: false },
);
export type RunBody = typeof RunBody.static;


const ErrorOrNull = (description: string) => Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()], { description });

export const Run = Type.Object({
  runId: Type.String(),
  workflowId: Type.String(),
  versionId: Type.String({ description: "the version the run executes (a retry keeps it)" }),
  status: RunStatus,
  trigger: RunTrigger,
  createdAt: DateTime(),
  startedAt: NullableDateTime,
  finishedAt: NullableDateTime,
  credits: Type.Integer({ description: "charged when the run was created" }),
  refunded: Type.Integer({ description: "given back by cancel for op steps that never started" }),
  inputFileIds: Type.Array(Type.String()),
  outputFileIds: Type.Array(Type.String()),
  replayOf: Type.Union([Type.String(), Type.Null()], { description: "the run this one replays" }),
  error: ErrorOrNull("APPROVAL_REJECTED, APPROVAL_TIMEOUT, a step's error code, ...; null unless failed"),
  workflowName: Type.Optional(Type.String({ description: "the workflow's current name (GET /api/workflows/runs carries it)" })),
});
export type Run = typeof Run.static;

export const Step = Type.Object({
  nodeId: Type.String({ description: "steps of a sub-workflow are `<op.workflow node id>/<child node id>`" }),
  parentNodeId: Type.Union([Type.String(), Type.Null()], { description: "the op.workflow step this one runs under" }),
  type: Type.String(),
  status: StepStatus,
  startedAt: NullableDateTime,
  finishedAt: NullableDateTime,
  inputFileIds: Type.Array(Type.String()),
  outputFileIds: Type.Array(Type.String()),
  error: ErrorOrNull("why the step failed; null unless failed"),
  attempts: Type.Integer(),
  jobIds: Type.Array(Type.String(), { description: "tool jobs of an op step" }),
  logs: Type.Array(Type.String()),
});
export type Step = typeof Step.static;


export const Approval = Type.Object({
  nodeId: Type.String(),
  status: ApprovalStatus,
  requestedAt: DateTime(),
  expiresAt: DateTime({ description: "when the run fails with APPROVAL_TIMEOUT" }),
  decidedAt: Type.Union([DateTime(), Type.Null()]),
  decision: Type.Union([Decision, Type.Null()]),
  note: Type.Union([Type.String(), Type.Null()]),
  decidedBy: Type.Union([Type.String({ description: "user id" }), Type.Null()]),
});
export type Approval = typeof Approval.static;

export const RunDetail = Type.Object({
  run: Run,
  steps: Type.Array(Step),
  approvals: Type.Array(Approval),
  deliveries: Type.Array(Delivery, { description: "completion notifications (outbound webhook, e-mail), one per terminal moment and channel, oldest first, each with its attempts" }),
});
export type RunDetail = typeof RunDetail.static;

export const ApproveBody = Type.Object(
  {
    decision: Decision,
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    nodeId: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: "which pending approval, when a run waits at several (default: the oldest)" })),
  },
  { additionalProperties: false },
);
export type ApproveBody = typeof ApproveBody.static;

/** A file an approval gates (the approval step's inputs), as the inbox shows it. */
export const GatedFile = Type.Object({
  fileId: Type.String(),
  name: Type.String(),
  sizeBytes: Type.Integer(),
  format: Type.Union([Type.String(), Type.Null()], { description: "format id found by the signature check" }),
});
export type GatedFile = typeof GatedFile.static;

/** One approval in the caller's inbox (GET /api/workflows/approvals): the approval with its run, node and gated files. */
export const ApprovalItem = Type.Composite([
  Approval,
  Type.Object({
    runId: Type.String(),
    workflowId: Type.String(),
    workflowName: Type.String(),
    nodeTitle: Type.String({ description: "the node kind's title from the catalog (Approval, ...)" }),
    files: Type.Array(GatedFile, { description: "the files the approval gates (its step's inputs) that still exist" }),
  }),
]);
export type ApprovalItem = typeof ApprovalItem.static;
export const ApprovalPage = Page(ApprovalItem);
export type ApprovalPage = typeof ApprovalPage.static;

/** Which approvals the inbox lists: `pending` (default), `decided` (every other status), or `all`. */
export const APPROVAL_FILTERS = ["pending", "decided", "all"] as const;
export const ApprovalFilter = literals(APPROVAL_FILTERS);
export type ApprovalFilter = typeof ApprovalFilter.static;

const ListLimit = Type.Optional(Type.String({ pattern: "^[0-9]{1,4}$", description: "1..200, default 50" }));
const ListCursor = Type.Optional(Type.String({ maxLength: 200, description: "nextCursor of the previous page" }));

export const RunListQuery = Type.Object({
  status: Type.Optional(RunStatus),
  workflowId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "only this workflow's runs (another user's or unknown: 404)" })),
  limit: ListLimit,
  cursor: ListCursor,
});
export type RunListQuery = typeof RunListQuery.static;

export const ApprovalListQuery = Type.Object({ status: Type.Optional(ApprovalFilter), limit: ListLimit, cursor: ListCursor });
export type ApprovalListQuery = typeof ApprovalListQuery.static;

/**
 * One event of GET /api/workflows/runs/{runId}/events: `run` carries the run, `step` one step
 * that changed. `id` grows with every change of the run (send it back as Last-Event-ID).
 */
export type RunEvent = { id: string; event: "run"; data: Run } | { id: string; event: "step"; data: Step };
export const RUN_EVENT_NAMES = ["run", "step"] as const;


/** One node kind as GET /api/workflows/catalog lists it. */
export const CatalogNode = Type.Object({
  type: Type.String({ description: "the value of a node's `type`" }),
  category: NodeCategory,
  title: Type.String(),
  description: Type.String(),
  params: Type.Unknown({ description: "JSON schema of `data.params`, with defaults and limits" }),
  io: Type.Object({
    accepts: Type.Union([Type.Array(Type.String()), Type.Literal("any")], { description: "format ids, or any" }),
    produces: Type.Union([Type.Array(Type.String()), Type.Literal("inputs")], { description: "format ids, or inputs: the formats it was given" }),
    minInputs: Type.Optional(Type.Integer({ description: "op nodes: files one tool run takes at least" })),
    maxInputs: Type.Optional(Type.Integer({ description: "op nodes: files one tool run takes at most (above 1: one run over all the step's inputs)" })),
  }),
  chargedSteps: Type.Integer({ description: "op steps a run is charged for this node (op.<tool>: 1, others 0)" }),
  triggers: Type.Optional(Type.Array(TriggerDoc, { description: "trigger.* nodes: what starts a run here (trigger records, their config, the hook's headers and body)" })),
  notifications: Type.Optional(Type.Array(NotificationDoc, { description: "trigger.* nodes: what a run sends when it ends (outbound webhook headers and bodies, e-mail)" })),
});
export type CatalogNode = typeof CatalogNode.static;

export const WorkflowPage = Page(Workflow);
export type WorkflowPage = typeof WorkflowPage.static;
export const RunPage = Page(Run);
export type RunPage = typeof RunPage.static;

/** A run started (run, retry): its id and what it charged. */
export const RunStarted = Type.Object({ runId: Type.String(), credits: Type.Integer({ description: "charged for this run (0 for a retry)" }) });
export type RunStarted = typeof RunStarted.static;

export const RunReplayed = Type.Object({ runId: Type.String(), credits: Type.Integer(), replayOf: Type.String() });
export type RunReplayed = typeof RunReplayed.static;

export const RunCancelled = Type.Object({ runId: Type.String(), status: Type.Literal("cancelled"), refundedCredits: Type.Integer() });
export type RunCancelled = typeof RunCancelled.static;

/** Deleting a workflow or a template. */
export const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
export type Deleted = typeof Deleted.static;
