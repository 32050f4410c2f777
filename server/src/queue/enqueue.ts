/**
 * Putting work on the queue: the one insert into the job table, for every kind (tool.run
 * included), in the caller's transaction when it has one, so a transition and the work it causes
 * commit together. Every column is written here, none left to its default. A dedupe key that a
 * live job already holds makes the insert a no-op: the same work is never queued twice.
 */
import { and, eq, getTableColumns, inArray, is, SQL, sql } from "drizzle-orm";
import type { PgInsertValue } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../db/client";
import { file, job } from "../db/schema";
import { newId } from "../lib/ids";
import { reusable } from "../db/reusable";
import { LANES, type ControlKind, type InputFile, type JobData, type JobRow } from "./kinds";
import { dueJobs, filesNamedBy, inputFilesJson, NOW_MS, QUEUED, underToolLimits, type ClaimArgs } from "./claim";

/** A job of any kind but tool.run: its payload is `data`. */
export interface Enqueue<K extends ControlKind> {
  kind: K;
  data: JobData[K];
  userId?: string | null;
  /** Not before this moment (delayed jobs, back-off). */
  runAfter?: Date;
  dedupeKey?: string;
}

/** Who asked for a tool job: POST /api/tools or /api/files, a createJob upload, a batch, a workflow step. */
export type ToolOrigin = "api" | "upload" | "batch" | "workflow";

/**
 * A tool.run job: the tool and its files are the row's `type` (the tool's slug; for every other
 * kind `type` is the kind), `params` and `input_file_ids`. Admit it first (tools/admission.ts).
 */
export interface EnqueueTool {
  kind: "tool.run";
  userId: string;
  tool: { slug: string; params: Record<string, unknown>; inputFileIds: string[] };
  origin: ToolOrigin;
  /** A workflow's tool jobs name their run and step. */
  data?: JobData["tool.run"];
  /** A batch item: its batch and place in it. */
  batchId?: string;
  position?: number;
}

export type AnyEnqueue = EnqueueTool | { [K in ControlKind]: Enqueue<K> }[ControlKind];

/** Queues one job; returns its id, or null when a live job holds the same dedupe key. */
export async function enqueue<K extends ControlKind>(db: Db | Tx, e: Enqueue<K> | EnqueueTool): Promise<string | null> {
  const [row] = await enqueueAll(db, [e as AnyEnqueue]);
  return row?.id ?? null;
}

/**
 * Queues many jobs in one statement; answers the rows queued (in order, dedupe no-ops left out).
 * The rows go as one JSON parameter read by jsonb_to_recordset: as a VALUES list, drizzle built
 * a parameter per column of every row, 33 ms of the API's thread for a batch of 400 items.
 */
export async function enqueueAll(db: Db | Tx, entries: AnyEnqueue[]): Promise<JobRow[]> {
  if (entries.length === 0) return [];
  return insertRecords(db, { records: JSON.stringify(entries.map(recordOf)) });
}

/** enqueueAll's statement, built once (every workflow transition queues with it): the records as one JSON parameter. */
const insertRecords = reusable((db) =>
  db
    .insert(job)
    .select(sql`select ${FROM_RECORD} from jsonb_to_recordset(${sql.placeholder("records")}::jsonb) as r(${RECORD_COLUMNS}) order by r.n`)
    .onConflictDoNothing({ target: job.dedupeKey, where: sql`dedupe_key IS NOT NULL AND status in ('queued', 'running')` })
    .returning(),
);

/** What differs from one job to another, as enqueueAll's records carry it (`n`: its place in the statement). */
const RECORD = {
  n: "int",
  id: "text",
  kind: "text",
  lane: "text",
  type: "text",
  user_id: "text",
  params: "jsonb",
  input_file_ids: "jsonb",
  data: "jsonb",
  run_after: "timestamptz",
  dedupe_key: "text",
  origin: "text",
  batch_id: "text",
  position: "int",
};
const RECORD_COLUMNS = sql.raw(Object.entries(RECORD).map(([name, type]) => `${name} ${type}`).join(", "));

/** What rowOf writes for every job: the columns a record does not carry come from here. */
const STARTING = rowOf({ kind: "tool.run", userId: "", tool: { slug: "", params: {}, inputFileIds: [] }, origin: "api" });

/**
 * A record's job row, in the table's column order: the record's values, the rest as rowOf starts
 * every job, written as literals (a parameter per column cost a single job's enqueue 0.25 ms more).
 */
const FROM_RECORD = sql.join(
  Object.entries(getTableColumns(job)).map(([key, column]) => {
    if (column.name === "run_after") return sql`coalesce(r.run_after, ${NOW_MS})`;
    if (column.name in RECORD) return sql.raw(`r.${column.name}`);
    const value = STARTING[key as keyof typeof STARTING];
    if (is(value, SQL)) return value;
    if (value === null || value === undefined) return sql.raw("null");
    return sql.raw(`'${String(column.mapToDriverValue(value)).replaceAll("'", "''")}'::${column.getSQLType()}`);
  }),
  sql`, `,
);

function recordOf(e: AnyEnqueue, n: number): Record<keyof typeof RECORD, unknown> {
  const row = rowOf(e);
  return {
    n,
    id: row.id,
    kind: row.kind,
    lane: row.lane,
    type: row.type,
    user_id: row.userId,
    params: row.params,
    input_file_ids: row.inputFileIds,
    data: row.data,
    run_after: is(row.runAfter, SQL) ? null : row.runAfter,
    dedupe_key: row.dedupeKey,
    origin: row.origin,
    batch_id: row.batchId,
    position: row.position,
  };
}

/** The limits and lease a tool job is inserted claimed under (JobRunner.reserveToolLane gives them). */
export type ClaimAtInsert = Omit<ClaimArgs, "lane">;

/** A tool job just inserted by enqueueAdmitted, and the rows of its inputs (what the tool run reads). */
export interface Admitted {
  row: JobRow;
  inputFiles: InputFile[];
}

/**
 * A tool job inserted in one statement with the admission of its inputs: only when every input
 * is its user's own UPLOADED file of at most `maxBytes` (tools/admission.ts asks the same, and
 * says why when this answers null: nothing was inserted). Given `at` (a free lane of this process
 * is held for it, JobRunner.reserveToolLane), it is inserted already claimed when the claim would
 * take it next anyway: no due tool job waits (those came first), and its user and the whole
 * server are under the running limits the claim applies (claim.ts). Otherwise it is inserted
 * queued, as by enqueue; the row's status says which. Only a queued insert wakes the lanes
 * (migrations 0017, 0018). Every tool call runs it, so its SQL is built once (db/reusable.ts;
 * two statements: claiming or not), its values sent as parameters.
 */
export async function enqueueAdmitted(db: Db | Tx, e: EnqueueTool, maxBytes: number, at: ClaimAtInsert | null): Promise<Admitted | null> {
  const ids = JSON.stringify(e.tool.inputFileIds);
  const sent = { id: newId("job"), type: e.tool.slug, userId: e.userId, origin: e.origin, batchId: e.batchId ?? null, position: e.position ?? null };
  const data = (e.data as JobRow["data"] | undefined) ?? null;
  const [inserted] = await (at ? claimingInsert : queuingInsert)(db, {
    ...sent,
    ids,
    count: e.tool.inputFileIds.length,
    maxBytes: Math.min(maxBytes, Number.MAX_SAFE_INTEGER),
    perUser: at?.perUser ?? 0,
    global: at?.global ?? 0,
    leaseSecs: (at?.leaseMs ?? 0) / 1000,
    params: JSON.stringify(e.tool.params),
    inputFileIds: ids,
    data: data === null ? null : JSON.stringify(data),
  });
  if (!inserted) return null;
  const { inputFiles, ...decided } = inserted;
  const row: JobRow = { ...TOOL_START, ...sent, params: e.tool.params, inputFileIds: [...e.tool.inputFileIds], outputFileIds: [], data, ...decided };
  return { row, inputFiles };
}

/** The columns of a tool job's row that its insert neither sends nor decides: STARTING's (plain values, no SQL among them). */
const TOOL_START = (({ kind, lane, dedupeKey, cancelRequestedAt, progress, errorCode, errorMessage, finishedAt }: JobRow) => ({ kind, lane, dedupeKey, cancelRequestedAt, progress, errorCode, errorMessage, finishedAt }))(STARTING as JobRow);

/**
 * What enqueueAdmitted's insert answers of its row: what the database decides (the claim, from the
 * database's clock), not the values it was sent. Answering every column, jsonb and times written
 * out as text and parsed again, was about 0.15 ms of each tool call's insert in PGlite.
 */
const DECIDED = { status: job.status, attempts: job.attempts, runAfter: job.runAfter, createdAt: job.createdAt, startedAt: job.startedAt, leaseUntil: job.leaseUntil };

// Built once: a tool call runs it on the database, a workflow transition in its transaction.
const claimingInsert = reusable((db) => buildAdmittedInsert(db, true));
const queuingInsert = reusable((db) => buildAdmittedInsert(db, false));

/** enqueueAdmitted's statement, its values as placeholders (jsonb ones as JSON text). */
function buildAdmittedInsert(db: Db, claims: boolean) {
  const p = sql.placeholder;
  const userId = p("userId");
  const inputs = db
    .$with("inputs", { id: file.id, status: file.status, filename: file.filename, size: file.size, mime: file.mime, storageKey: file.storageKey })
    .as(sql`select i.id, i.status, i.filename, i.size, i.mime, i.storage_key from ${filesNamedBy(sql`${p("ids")}::jsonb`)} where i.user_id = ${userId} and i.status = 'UPLOADED' and i.size <= ${p("maxBytes")}`);
  // OFFSET 0 keeps `go` a subquery evaluated once: inlined, its expression would be copied into
  // each of the four columns that read `ok`, and the limits' subqueries run four times.
  const go = db.$with("go", { ok: sql<boolean>`ok` }).as(sql`select ${claims ? runsNow(sql`${userId}::text`, { perUser: sql`${p("perUser")}::int`, global: sql`${p("global")}::int` }) : sql`false`} as ok offset 0`);
  const ok = sql`${go}.ok`;
  const json = (name: string) => sql`${p(name)}::jsonb`;
  const values: PgInsertValue<typeof job> = {
    // The columns every tool job starts with, as rowOf writes them; then the job's own, as placeholders.
    ...STARTING,
    id: p("id"),
    type: p("type"),
    userId,
    params: json("params"),
    inputFileIds: json("inputFileIds"),
    data: json("data"),
    origin: p("origin"),
    batchId: p("batchId"),
    position: p("position"),
    status: sql`case when ${ok} then 'running' else 'queued' end`,
    attempts: sql`case when ${ok} then 1 else 0 end`,
    leaseUntil: claims ? sql`case when ${ok} then now() + make_interval(secs => ${p("leaseSecs")}::float8) end` : null,
    startedAt: sql`case when ${ok} then now() end`,
  };
  return db
    .with(inputs, go)
    .insert(job)
    .select(sql`select ${selectList(values)} from ${go} where (select count(*) from ${inputs}) = ${p("count")}::int`)
    .returning({ ...DECIDED, inputFiles: inputFilesJson(sql`${inputs} i`) });
}

/** Nothing claimable waits before a tool job of `userId` (those came first), and the claim's limits let it run. */
function runsNow(userId: SQL, limits: Parameters<typeof underToolLimits>[1]) {
  // A scalar subquery, not NOT EXISTS: Postgres drops an EXISTS subquery's ORDER BY, which dueJobs needs.
  return sql`((${dueJobs(sql`'tool'`, QUEUED, sql`1`)}) is null and ${underToolLimits(userId, limits)})`;
}

/**
 * A job row's values as the select list of an insert ... select, in the table's column order:
 * plain values as the typed parameters `.values()` would send, cast to their column's type
 * (a parameter in a select list has no type of its own).
 */
function selectList(values: PgInsertValue<typeof job>): SQL {
  const columns = Object.entries(getTableColumns(job)).map(([key, column]) => {
    const value = values[key as keyof typeof values];
    return is(value, SQL) ? value : sql`${sql.param(value, column)}::${sql.raw(column.getSQLType())}`;
  });
  return sql.join(columns, sql`, `);
}

function rowOf(e: AnyEnqueue): PgInsertValue<typeof job> {
  const tool = e.kind === "tool.run" ? e : null;
  const control = e.kind === "tool.run" ? null : e;
  return {
    id: newId("job"),
    kind: e.kind,
    lane: LANES[e.kind],
    type: tool ? tool.tool.slug : e.kind,
    userId: e.userId ?? null,
    status: "queued",
    params: tool?.tool.params ?? {},
    inputFileIds: tool?.tool.inputFileIds ?? [],
    outputFileIds: [],
    data: (e.data as Record<string, unknown> | undefined) ?? null,
    progress: 0,
    attempts: 0,
    errorCode: null,
    errorMessage: null,
    leaseUntil: null,
    cancelRequestedAt: null,
    runAfter: control?.runAfter ?? NOW_MS,
    dedupeKey: control?.dedupeKey ?? null,
    origin: tool?.origin ?? "system",
    batchId: tool?.batchId ?? null,
    position: tool?.position ?? null,
    createdAt: sql`now()`,
    startedAt: null,
    finishedAt: null,
  };
}

/**
 * The queued job holding `dedupeKey`, when it waits for a later moment, becomes due now and one
 * idle lane of its kind is woken (the job table's triggers notify inserts and requeues only).
 * Returns its id, or null when no job waits under that key (none, running, or already due).
 * What made a duplicate enqueue a no-op can still be asked for sooner this way.
 */
export async function dueNow(db: Db | Tx, dedupeKey: string): Promise<string | null> {
  const rows = await db
    .update(job)
    .set({ runAfter: NOW_MS })
    .where(and(eq(job.dedupeKey, dedupeKey), eq(job.status, "queued"), sql`${job.runAfter} > now()`))
    .returning({ id: job.id, lane: job.lane });
  if (!rows[0]) return null;
  await db.execute(sql`select pg_notify('vektor_jobs', ${rows[0].lane})`);
  return rows[0].id;
}
