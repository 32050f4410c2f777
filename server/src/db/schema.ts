/**
 * The database schema (drizzle). Better Auth's four tables come first with the property names
 * its drizzle adapter expects; our resources follow. Migrations in server/drizzle/ are
 * generated from this file (`bun run db:generate` in server/) and run on PGlite and Postgres.
 */
import { sql } from "drizzle-orm";
import { APPROVAL_STATUSES, DECISIONS, DELIVERY_CHANNELS, DELIVERY_STATUSES, FILE_STATUSES, JOB_STATUSES, RUN_STATUSES, RUN_TRIGGERS, STEP_STATUSES, TERMINAL_RUN_STATUSES, TOKEN_SCOPES, type AttemptOutcome, type TokenScope } from "@vektor/shared/schemas/vocab";
import { bigint, boolean, check, index, integer, jsonb, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 });
const createdAt = () => ts("created_at").notNull().defaultNow();

/**
 * A workflow's notifySecret, sealed (workflows/notify/secret.ts): params_json never holds it.
 * Rows written before migration 0010 had it in params_json; the partial index finds any left, so
 * the step that seals them at every start reads only those rows (empty once done).
 */
/**
 * A column holds one of a vocabulary's values (shared/src/schemas/vocab.ts): the CHECK says so to
 * the database, `text({ enum })` to the code.
 */
const oneOf = (name: string, column: AnyPgColumn, values: readonly string[]) => check(name, sql`${column} in (${sql.raw(values.map(literal).join(", "))})`);
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

const notifySecretSealed = () => text("notify_secret_sealed");
const plainNotifySecretIdx = (name: string, t: { id: AnyPgColumn; paramsJson: AnyPgColumn }) => index(name).on(t.id).where(sql`${t.paramsJson} LIKE '%notifySecret%'`);

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: text("role").notNull().default("user"),
  plan: text("plan").notNull().default("free"),
  /** Current balance; the ledger below explains every change. Never negative. */
  credits: integer("credits").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** The owning account of a row: every user's data goes when the account does. */
const ownerId = () =>
  text("user_id")
    .notNull()
    .references(() => user.id, { onDelete: "cascade" });

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: ts("expires_at").notNull(),
    token: text("token").notNull().unique(),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: ownerId(),
  },
  (t) => [index("session_user_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: ownerId(),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: ts("access_token_expires_at"),
    refreshTokenExpiresAt: ts("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("account_user_idx").on(t.userId)],
);

export const verification = pgTable("verification", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: ts("expires_at").notNull(),
  createdAt: createdAt(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

export const creditLedger = pgTable(
  "credit_ledger",
  {
    id: text("id").primaryKey(),
    /** Kept for the audit when the account is deleted, then anonymised (null). */
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    amount: integer("amount").notNull(),
    reason: text("reason").notNull(),
    ref: text("ref"),
    createdAt: createdAt(),
  },
  (t) => [index("credit_ledger_user_idx").on(t.userId, t.createdAt, t.id)],
);

export const apiToken = pgTable(
  "api_token",
  {
    id: text("id").primaryKey(),
    userId: ownerId(),
    name: text("name").notNull(),
    /** sha256 hex of the whole token; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    prefix: text("prefix").notNull(),
    last4: text("last4").notNull(),
    scopes: jsonb("scopes").$type<TokenScope[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    expiresAt: ts("expires_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    uniqueIndex("api_token_hash_idx").on(t.tokenHash),
    index("api_token_user_idx").on(t.userId),
    check("api_token_scopes_check", sql`jsonb_typeof(${t.scopes}) = 'array' and ${t.scopes} <@ ${sql.raw(literal(JSON.stringify(TOKEN_SCOPES)))}::jsonb`),
  ],
);

/** Admin overrides of configuration keys; a key without a row has its default. */
export const setting = pgTable(
  "setting",
  {
    group: text("group").notNull(),
    key: text("key").notNull(),
    value: jsonb("value").notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    updatedBy: text("updated_by"),
  },
  (t) => [primaryKey({ columns: [t.group, t.key] })],
);

/**
 * Requests per caller and minute summed across processes (SharedRateLimiter, PostgreSQL only):
 * `key_hash` is a sha256 of the caller key, `window_start` the minute in epoch milliseconds.
 */
export const rateLimitCount = pgTable(
  "rate_limit_count",
  {
    keyHash: text("key_hash").notNull(),
    windowStart: bigint("window_start", { mode: "number" }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyHash, t.windowStart] })],
);

/** Better Auth's own rate limit (its `rateLimit` model, storage "database"): shared by every process. */
export const rateLimit = pgTable("auth_rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/**
 * Failed sign-ins (auth/sign-in-throttle.ts), per account, per account and address, and per
 * address; keys are sha256 digests, so neither e-mails that have no account nor addresses are kept.
 */
export const signInFailure = pgTable("sign_in_failure", {
  keyHash: text("key_hash").primaryKey(),
  failures: integer("failures").notNull(),
  lastFailedAt: ts("last_failed_at").notNull(),
});

export const auditLog = pgTable("audit_log", {
  id: text("id").primaryKey(),
  actorId: text("actor_id"),
  action: text("action").notNull(),
  target: text("target"),
  detail: jsonb("detail").$type<Record<string, unknown>>(),
  createdAt: createdAt(),
});

export const file = pgTable(
  "file",
  {
    id: text("id").primaryKey(),
    userId: ownerId(),
    filename: text("filename").notNull(),
    mime: text("mime").notNull(),
    /** Declared size until confirmed; then the stored size. */
    size: bigint("size", { mode: "number" }).notNull(),
    /** sha256 hex: the declared one before confirm, the computed one after. */
    checksum: text("checksum"),
    /** PENDING (waiting for bytes), UPLOADED (confirmed). */
    status: text("status", { enum: FILE_STATUSES }).notNull(),
    format: text("format"),
    storageKey: text("storage_key").notNull(),
    /** Multipart upload id while a multipart upload is open. */
    uploadId: text("upload_id"),
    partSize: integer("part_size"),
    /** Set once all bytes arrived (single PUT done or multipart completed). */
    receivedSize: bigint("received_size", { mode: "number" }),
    receivedSha256: text("received_sha256"),
    /** The job that produced this file (outputs only) and the file it was made from. */
    jobId: text("job_id"),
    sourceFileId: text("source_file_id"),
    /** The latest output made from this file. */
    outFileId: text("out_file_id"),
    /** createJob/jobType/params asked for at presign-upload or import-url. */
    pendingJob: jsonb("pending_job").$type<{ type: string; params: Record<string, unknown> } | null>(),
    createdAt: createdAt(),
    uploadedAt: ts("uploaded_at"),
  },
  (t) => [
    index("file_user_created_idx").on(t.userId, t.createdAt, t.id),
    // GET /api/files?checksum=: the owner's ready file with these bytes, reused instead of a second upload.
    index("file_user_checksum_idx").on(t.userId, t.checksum).where(sql`${t.status} = 'UPLOADED'`),
    oneOf("file_status_check", t.status, FILE_STATUSES),
  ],
);

/**
 * Jobs: one tool run over input files. The table is also the queue: a worker claims a queued
 * row (or a running one whose lease expired) with FOR UPDATE SKIP LOCKED, so any number of
 * server processes can share the work and a crashed worker's job is picked up again.
 */
export const job = pgTable(
  "job",
  {
    id: text("id").primaryKey(),
    /** The owner; null for system work (retention, schedule dispatch). */
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    /** The job kind (queue/kinds.ts): tool.run, workflow.step, approval.timeout, retention.sweep, ... */
    kind: text("kind").notNull().default("tool.run"),
    /** tool (long runs on the worker pool, per-user limits) or control (short transitions). */
    lane: text("lane").notNull().default("tool"),
    /** The kind's payload (a workflow tool job carries its run and step here). */
    data: jsonb("data").$type<Record<string, unknown>>(),
    /** Not claimed before this moment: delayed jobs and retry back-off, both surviving a restart. */
    runAfter: ts("run_after").notNull().defaultNow(),
    /** At most one live (queued or running) job per key: the same work is never queued twice. */
    dedupeKey: text("dedupe_key"),
    /** Set by a cancel while the job runs: its worker stops it at the next lease renewal. */
    cancelRequestedAt: ts("cancel_requested_at"),
    /** For tool.run the tool slug; for other kinds the kind. */
    type: text("type").notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull(),
    params: jsonb("params").$type<Record<string, unknown>>().notNull(),
    inputFileIds: jsonb("input_file_ids").$type<string[]>().notNull(),
    outputFileIds: jsonb("output_file_ids").$type<string[]>().notNull().default([]),
    progress: integer("progress").notNull().default(0),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    attempts: integer("attempts").notNull().default(0),
    leaseUntil: ts("lease_until"),
    /** Who asked: api (POST /api/tools or /api/files), upload (createJob), batch, and later workflow. */
    origin: text("origin").notNull().default("api"),
    /** Set for batch items: the batch and the item's place in it. */
    batchId: text("batch_id"),
    position: integer("position"),
    createdAt: createdAt(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    // Live jobs only: what claims, limits and the queue depth read (they name the statuses as literals).
    index("job_lane_claim_idx").on(t.lane, t.status, t.runAfter, t.createdAt).where(sql`status in ('queued', 'running')`),
    uniqueIndex("job_dedupe_live_idx").on(t.dedupeKey).where(sql`dedupe_key IS NOT NULL AND status in ('queued', 'running')`),
    index("job_user_created_idx").on(t.userId, t.createdAt, t.id),
    index("job_batch_idx").on(t.batchId, t.position).where(sql`batch_id IS NOT NULL`),
    oneOf("job_status_check", t.status, JOB_STATUSES),
  ],
);

/** A batch: one tool over many files, charged once at creation; its items are job rows. */
export const batch = pgTable(
  "batch",
  {
    id: text("id").primaryKey(),
    userId: ownerId(),
    name: text("name").notNull(),
    type: text("type").notNull(),
    engine: text("engine").notNull(),
    params: jsonb("params").$type<Record<string, unknown>>().notNull(),
    credits: integer("credits").notNull(),
    /** The per-file part of the charge, kept for refunds whatever the configuration says later. */
    perFileCredits: integer("per_file_credits").notNull(),
    refunded: integer("refunded").notNull().default(0),
    total: integer("total").notNull(),
    cancelledAt: ts("cancelled_at"),
    /** The cached ZIP of the outputs: null, "building", or "ready" with its key, size and sha256. */
    zipState: text("zip_state"),
    zipKey: text("zip_key"),
    zipSize: bigint("zip_size", { mode: "number" }),
    zipSha256: text("zip_sha256"),
    zipStartedAt: ts("zip_started_at"),
    createdAt: createdAt(),
  },
  (t) => [index("batch_user_created_idx").on(t.userId, t.createdAt, t.id)],
);

export const batchPreset = pgTable(
  "batch_preset",
  {
    id: text("id").primaryKey(),
    userId: ownerId(),
    name: text("name").notNull(),
    type: text("type").notNull(),
    params: jsonb("params").$type<Record<string, unknown>>().notNull(),
    engine: text("engine").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("batch_preset_user_idx").on(t.userId, t.createdAt)],
);

/** First answers of requests sent with an Idempotency-Key, kept 24 hours. */
export const idempotencyKey = pgTable(
  "idempotency_key",
  {
    userId: ownerId(),
    key: text("key").notNull(),
    scope: text("scope").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    response: jsonb("response"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.scope, t.key] })],
);

/** A workflow: its current content; every change is also a row in workflow_version. */
export const workflow = pgTable(
  "workflow",
  {
    id: text("id").primaryKey(),
    userId: ownerId(),
    name: text("name").notNull(),
    graphJson: text("graph_json").notNull(),
    paramsJson: text("params_json"),
    notifySecretSealed: notifySecretSealed(),
    versionId: text("version_id").notNull(),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("workflow_user_created_idx").on(t.userId, t.createdAt, t.id), plainNotifySecretIdx("workflow_plain_notify_secret_idx", t)],
);

export const workflowVersion = pgTable(
  "workflow_version",
  {
    id: text("id").primaryKey(),
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflow.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    graphJson: text("graph_json").notNull(),
    paramsJson: text("params_json"),
    notifySecretSealed: notifySecretSealed(),
    createdAt: createdAt(),
  },
  (t) => [index("workflow_version_wf_idx").on(t.workflowId, t.createdAt), plainNotifySecretIdx("workflow_version_plain_notify_secret_idx", t)],
);

export const workflowTemplate = pgTable(
  "workflow_template",
  {
    id: text("id").primaryKey(),
    userId: ownerId(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    graphJson: text("graph_json").notNull(),
    paramsJson: text("params_json"),
    notifySecretSealed: notifySecretSealed(),
    createdAt: createdAt(),
  },
  (t) => [index("workflow_template_user_idx").on(t.userId, t.createdAt), plainNotifySecretIdx("workflow_template_plain_notify_secret_idx", t)],
);

/** The flat plan a run executes (sub-workflows inlined), snapshotted at its start. */
export interface RunPlan {
  nodes: { id: string; type: string; params: Record<string, unknown>; parentId: string | null; nested: boolean }[];
  edges: { source: string; target: string }[];
}

/**
 * Changes of runs and steps in one order: a row takes the sequence's next value in `change_seq`
 * when inserted, and again at every update that changes it (trigger, migration 0013). The run
 * event stream's event ids are these values (modules/workflows/events.ts).
 */
export const workflowChangeSeq = pgSequence("workflow_change_seq");
const changeSeq = () =>
  bigint("change_seq", { mode: "number" })
    .notNull()
    .default(sql`nextval('workflow_change_seq')`);

/** One run of a workflow; its steps and approvals hang off it. Its row is the lock every transition takes. */
export const workflowRun = pgTable(
  "workflow_run",
  {
    id: text("id").primaryKey(),
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflow.id, { onDelete: "cascade" }),
    userId: ownerId(),
    versionId: text("version_id").notNull(),
    status: text("status", { enum: RUN_STATUSES }).notNull(),
    trigger: text("trigger", { enum: RUN_TRIGGERS }).notNull(),
    plan: jsonb("plan").$type<RunPlan>().notNull(),
    paramsJson: text("params_json"),
    /** The workflow's sealed notifySecret when the run started (its completion webhook is signed with it). */
    notifySecretSealed: notifySecretSealed(),
    inputFileIds: jsonb("input_file_ids").$type<string[]>().notNull(),
    outputFileIds: jsonb("output_file_ids").$type<string[]>().notNull().default([]),
    credits: integer("credits").notNull(),
    perStepCredits: integer("per_step_credits").notNull(),
    refunded: integer("refunded").notNull().default(0),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    replayOf: text("replay_of"),
    createdAt: createdAt(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
    changeSeq: changeSeq(),
  },
  (t) => [
    index("workflow_run_wf_created_idx").on(t.workflowId, t.createdAt, t.id),
    index("workflow_run_user_idx").on(t.userId, t.createdAt, t.id),
    plainNotifySecretIdx("workflow_run_plain_notify_secret_idx", t),
    oneOf("workflow_run_status_check", t.status, RUN_STATUSES),
    oneOf("workflow_run_trigger_check", t.trigger, RUN_TRIGGERS),
  ],
);

export const workflowStep = pgTable(
  "workflow_step",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => workflowRun.id, { onDelete: "cascade" }),
    nodeId: text("node_id").notNull(),
    parentNodeId: text("parent_node_id"),
    type: text("type").notNull(),
    status: text("status", { enum: STEP_STATUSES }).notNull(),
    /** How many times the step was started (a retry starts it again). */
    attempts: integer("attempts").notNull().default(0),
    /** Whether an op step was charged and has not started yet (refunded on cancel). */
    charged: boolean("charged").notNull().default(false),
    inputFileIds: jsonb("input_file_ids").$type<string[]>().notNull().default([]),
    outputFileIds: jsonb("output_file_ids").$type<string[]>().notNull().default([]),
    jobIds: jsonb("job_ids").$type<string[]>().notNull().default([]),
    logs: jsonb("logs").$type<string[]>().notNull().default([]),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
    changeSeq: changeSeq(),
  },
  (t) => [uniqueIndex("workflow_step_run_node_idx").on(t.runId, t.nodeId), oneOf("workflow_step_status_check", t.status, STEP_STATUSES)],
);

export const workflowApproval = pgTable(
  "workflow_approval",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => workflowRun.id, { onDelete: "cascade" }),
    /** The run's owner, for the inbox's index (deleted with the run, so no reference of its own). */
    userId: text("user_id").notNull(),
    nodeId: text("node_id").notNull(),
    status: text("status", { enum: APPROVAL_STATUSES }).notNull(),
    requestedAt: ts("requested_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    decidedAt: ts("decided_at"),
    decision: text("decision", { enum: DECISIONS }),
    note: text("note"),
    decidedBy: text("decided_by"),
  },
  (t) => [
    index("workflow_approval_run_idx").on(t.runId),
    index("workflow_approval_user_idx").on(t.userId, t.requestedAt, t.id),
    oneOf("workflow_approval_status_check", t.status, APPROVAL_STATUSES),
    oneOf("workflow_approval_decision_check", t.decision, DECISIONS),
  ],
);

/**
 * A workflow's triggers, at most one per type (webhook, schedule, watch). The secret is sealed
 * (AES-256-GCM, key derived from the server secret, the row id as associated data): a dump of
 * the database does not hand it out, and HMAC verification can still recover it.
 */
export const workflowTrigger = pgTable(
  "workflow_trigger",
  {
    id: text("id").primaryKey(),
    workflowId: text("workflow_id")
      .notNull()
      .references(() => workflow.id, { onDelete: "cascade" }),
    /** webhook, schedule, watch */
    type: text("type").notNull(),
    config: jsonb("config").$type<Record<string, unknown>>().notNull(),
    secretSealed: text("secret_sealed").notNull(),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("workflow_trigger_wf_type_idx").on(t.workflowId, t.type), index("workflow_trigger_type_idx").on(t.type)],
);

/**
 * What a schedule or watch trigger started: one row per (trigger, fire time) or (trigger, file),
 * inserted in the transaction that creates the run, so a fire starts its run exactly once.
 */
export const workflowTriggerFire = pgTable(
  "workflow_trigger_fire",
  {
    id: text("id").primaryKey(),
    triggerId: text("trigger_id")
      .notNull()
      .references(() => workflowTrigger.id, { onDelete: "cascade" }),
    fireAt: ts("fire_at"),
    fileId: text("file_id"),
    runId: text("run_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("workflow_trigger_fire_at_idx").on(t.triggerId, t.fireAt), uniqueIndex("workflow_trigger_fire_file_idx").on(t.triggerId, t.fileId)],
);

/** Signatures of accepted signed hook requests, kept while their timestamp is in the window: a replay is refused. */
export const webhookSignature = pgTable(
  "webhook_signature",
  {
    triggerId: text("trigger_id")
      .notNull()
      .references(() => workflowTrigger.id, { onDelete: "cascade" }),
    signature: text("signature").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.triggerId, t.signature] }), index("webhook_signature_expires_idx").on(t.expiresAt)],
);

/** One attempt of a delivery, as the run detail shows it. */
export interface DeliveryAttempt {
  at: string;
  /** ok (2xx / accepted by the SMTP server), http_error, timeout, error (connection, DNS, SMTP), blocked (address guard). */
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * A completion notification of one run's terminal moment (outbound webhook or e-mail): its id is
 * the `X-Service-Delivery` header of every attempt, `body` the exact bytes each attempt sends, and
 * `attempts` what each try gave. The run's status is never touched by it.
 */
export const delivery = pgTable(
  "delivery",
  {
    id: text("id").primaryKey(),
    runId: text("run_id")
      .notNull()
      .references(() => workflowRun.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: DELIVERY_CHANNELS }).notNull(),
    /** The notifyUrl, or the owner's e-mail address. */
    target: text("target").notNull(),
    /** The terminal status the delivery reports. */
    runStatus: text("run_status", { enum: TERMINAL_RUN_STATUSES }).notNull(),
    body: text("body").notNull(),
    /** failed: gave up; blocked: the address guard; skipped: e-mail switched off before it went */
    status: text("status", { enum: DELIVERY_STATUSES }).notNull(),
    attempts: jsonb("attempts").$type<DeliveryAttempt[]>().notNull().default([]),
    createdAt: createdAt(),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("delivery_run_idx").on(t.runId, t.createdAt),
    oneOf("delivery_channel_check", t.channel, DELIVERY_CHANNELS),
    oneOf("delivery_run_status_check", t.runStatus, TERMINAL_RUN_STATUSES),
    oneOf("delivery_status_check", t.status, DELIVERY_STATUSES),
  ],
);

export const schema = { user, session, account, verification, creditLedger, apiToken, setting, rateLimitCount, rateLimit, signInFailure, auditLog, file, job, idempotencyKey, batch, batchPreset, workflow, workflowVersion, workflowTemplate, workflowRun, workflowStep, workflowApproval, workflowTrigger, workflowTriggerFire, webhookSignature, delivery };
export type Schema = typeof schema;
