/**
 * The values of every closed vocabulary of the service, said once, with the terminal subset where
 * a thing ends and its test: plain lists, without TypeBox, so the web app's shell and the client
 * carry no schema library. vocab.ts adds a TypeBox union of each (the API's schemas and OpenAPI
 * use them) and re-exports all of this.
 */

/** A membership test that narrows, for the terminal subsets below. */
function member<const T extends readonly string[]>(values: T): (value: string) => value is T[number] {
  const set = new Set<string>(values);
  return (value): value is T[number] => set.has(value);
}

/** A stored file: PENDING while its bytes are awaited (upload or import open), UPLOADED once confirmed. */
export const FILE_STATUSES = ["PENDING", "UPLOADED"] as const;

/** A job (a tool run, a batch item, or any other queued kind): queued, then claimed, then ended. */
export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
/** The live ones: at most one live job per dedupe key. */
export const LIVE_JOB_STATUSES = ["queued", "running"] as const satisfies readonly (typeof JOB_STATUSES)[number][];
export const TERMINAL_JOB_STATUSES = ["succeeded", "failed", "cancelled"] as const satisfies readonly (typeof JOB_STATUSES)[number][];
export const isTerminalJob = member(TERMINAL_JOB_STATUSES);

/** A batch's status, derived from its items' (never stored). */
export const BATCH_STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export const TERMINAL_BATCH_STATUSES = ["completed", "failed", "cancelled"] as const satisfies readonly (typeof BATCH_STATUSES)[number][];
export const isTerminalBatch = member(TERMINAL_BATCH_STATUSES);

/** A batch item is a job: its statuses are a job's. */
export const BATCH_ITEM_STATUSES = JOB_STATUSES;

/** Run statuses; `succeeded`, `failed` and `cancelled` are terminal. */
export const RUN_STATUSES = ["queued", "running", "waiting_approval", "succeeded", "failed", "cancelled"] as const;
export const TERMINAL_RUN_STATUSES = ["succeeded", "failed", "cancelled"] as const satisfies readonly (typeof RUN_STATUSES)[number][];
export type TerminalRunStatus = (typeof TERMINAL_RUN_STATUSES)[number];
export const isTerminalRun = member(TERMINAL_RUN_STATUSES);

export const STEP_STATUSES = ["pending", "running", "waiting_approval", "succeeded", "failed", "skipped"] as const;
export const TERMINAL_STEP_STATUSES = ["succeeded", "failed", "skipped"] as const satisfies readonly (typeof STEP_STATUSES)[number][];
export const isTerminalStep = member(TERMINAL_STEP_STATUSES);
/** A step's successors may start once each predecessor ended in one of these. */
export const PASSED_STEP_STATUSES = ["succeeded", "skipped"] as const satisfies readonly (typeof STEP_STATUSES)[number][];
export const isPassedStep = member(PASSED_STEP_STATUSES);

/** `expired`: the wait timed out; `cancelled`: the run ended (cancelled or failed elsewhere) while it waited. */
export const APPROVAL_STATUSES = ["pending", "approved", "rejected", "expired", "cancelled"] as const;
export const TERMINAL_APPROVAL_STATUSES = ["approved", "rejected", "expired", "cancelled"] as const satisfies readonly (typeof APPROVAL_STATUSES)[number][];
export const isTerminalApproval = member(TERMINAL_APPROVAL_STATUSES);

export const DECISIONS = ["approved", "rejected"] as const satisfies readonly (typeof APPROVAL_STATUSES)[number][];

/** How a run started. */
export const RUN_TRIGGERS = ["manual", "webhook", "schedule", "watch", "replay", "mcp"] as const;

/** Completion notifications of a run. */
export const DELIVERY_CHANNELS = ["webhook", "email"] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];
export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "blocked", "skipped"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const TERMINAL_DELIVERY_STATUSES = ["succeeded", "failed", "blocked", "skipped"] as const satisfies readonly DeliveryStatus[];
export const isTerminalDelivery = member(TERMINAL_DELIVERY_STATUSES);
/** What one attempt of a delivery gave. */
export const ATTEMPT_OUTCOMES = ["ok", "http_error", "timeout", "error", "blocked"] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** API token scopes: `api` (the REST endpoints) and `mcp:write` (MCP write tools). */
export const TOKEN_SCOPES = ["api", "mcp:write"] as const;
export const isTokenScope = member(TOKEN_SCOPES);

/** Workflow node categories, in the order the editor's palette shows them. */
export const NODE_CATEGORIES = ["trigger", "source", "op", "logic", "sink"] as const;

/** Who may list and call an MCP tool: anyone, any live API token, a token with the `mcp:write` scope. */
export const MCP_ACCESS_LEVELS = ["anonymous", "token", "write"] as const;
