/**
 * Batches: one tool over many files. Creation checks the files and limits, then charges
 * `base + per_file x N` and inserts the batch and its N items (job rows) in one transaction, so
 * a short balance creates nothing and two concurrent creations can never overdraw.
 */
import { fail, ServiceError } from "@vektor/shared/errors";
import { isTerminalBatch, type JobStatus } from "@vektor/shared/schemas/vocab";
import { and, asc, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Caller } from "../../auth/caller";
import type { Db } from "../../db/client";
import { pageOf, preparedPages } from "../../http/cursor";
import { batch, batchPreset, file, job } from "../../db/schema";
import { ownedRow } from "../../db/owned";
import { newId } from "../../lib/ids";
import { cancelQueued, requeue } from "../../queue/control";
import { enqueueAll } from "../../queue/enqueue";
import { admitInputs, admitTool, orThrow } from "../../tools/admission";
import { credit, debit } from "../../credits/ledger";
import type { ConfigService } from "../../config/service";
import { batchStatus, countStatuses, type Counts } from "./status";

export const ENGINES = ["server"] as const;
const MB = 1024 * 1024;
const INSERT_CHUNK = 500;

type BatchRow = typeof batch.$inferSelect;
export interface CreateBatch {
  type: string;
  fileIds: string[];
  params?: Record<string, unknown>;
  name?: string;
  engine?: string;
}

/** Control characters (C0, DEL, C1): a name is shown in lists, headers and ZIP names, where they do harm. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A batch name as given, trimmed; blank, over 200 characters or holding control characters is a 400. */
export function batchName(given: string): string {
  const name = given.trim();
  if (name === "") throw fail.validation("The batch name must not be blank");
  if (name.length > 200) throw fail.validation("The batch name must be at most 200 characters");
  if (CONTROL.test(name)) throw fail.validation("The batch name must not hold control characters such as line breaks or tabs");
  return name;
}

export class BatchService {
  private readonly pages;

  constructor(
    private readonly db: Db,
    private readonly config: ConfigService,
    /** TOOL_MAX_INPUT_MB: no item's file larger than this (nor than the tool's own limit) is admitted. */
    private readonly maxInputBytes = Infinity,
  ) {
    this.pages = preparedPages<typeof batch.$inferSelect>("batches_list", batch.createdAt, batch.id, (after) =>
      db
        .select()
        .from(batch)
        .where(and(eq(batch.userId, sql.placeholder("userId")), after))
        .orderBy(desc(batch.createdAt), desc(batch.id))
        .limit(sql.placeholder("limit")),
    );
  }

  async settings() {
    const c = await this.config.all();
    return {
      enabled: c["batch.enabled"],
      engines: [...ENGINES],
      baseCredits: c["batch.base_credits"],
      perFileCredits: c["batch.per_file_credits"],
      maxFiles: { free: c["batch.max_files_free"], pro: c["batch.max_files_pro"] },
      maxSizeMb: { free: c["batch.max_size_mb_free"], pro: c["batch.max_size_mb_pro"] },
    };
  }

  async estimate(plan: Caller["plan"], fileCount: number) {
    const s = await this.settings();
    const maxFiles = s.maxFiles[plan];
    return { credits: s.baseCredits + s.perFileCredits * fileCount, baseCredits: s.baseCredits, perFileCredits: s.perFileCredits, maxFiles, withinLimit: fileCount >= 1 && fileCount <= maxFiles };
  }

  /** Tool, engine and params of a batch or preset (400 on any of them). */
  checkTool(type: string, engine: string | undefined, params: Record<string, unknown> | undefined) {
    const eng = engine ?? "server";
    if (!(ENGINES as readonly string[]).includes(eng)) throw fail.validation(`engine must be one of ${ENGINES.join(", ")}`);
    // An unknown tool is a bad field of the body here (400), not a missing resource.
    const tool = orThrow(admitTool(type, params), "validation");
    if ((tool.manifest.io.minInputs ?? 1) !== 1) throw fail.validation(`${type} needs several inputs per run; a batch runs the tool once per file`);
    return { engine: eng, params: tool.params, manifest: tool.manifest };
  }

  async create(caller: Caller, body: CreateBatch) {
    const s = await this.settings();
    if (!s.enabled) throw new ServiceError("FEATURE_DISABLED", "Batches are turned off");
    const { engine, params, manifest } = this.checkTool(body.type, body.engine, body.params);
    const ids = body.fileIds;
    if (ids.length === 0) throw fail.validation("fileIds must name at least one file");
    if (new Set(ids).size !== ids.length) throw fail.validation("fileIds must not repeat an id");
    if (ids.length > s.maxFiles[caller.plan]) throw new ServiceError("LIMIT_EXCEEDED", `A ${caller.plan} batch takes at most ${s.maxFiles[caller.plan]} files; ${ids.length} given`);
    const totalBytes = orThrow(await admitInputs(this.db, caller.id, ids, { tool: manifest, serverMaxBytes: this.maxInputBytes }), "validation").sizes.reduce((sum, n) => sum + n, 0);
    if (totalBytes > s.maxSizeMb[caller.plan] * MB) throw new ServiceError("LIMIT_EXCEEDED", `A ${caller.plan} batch takes at most ${s.maxSizeMb[caller.plan]} MB in all`);
    const name = body.name === undefined ? `${body.type} x ${ids.length}` : batchName(body.name);
    const credits = s.baseCredits + s.perFileCredits * ids.length;
    const batchId = newId("b");
    await this.db.transaction(async (tx) => {
      await debit(tx, caller.id, credits, "batch", batchId);
      await tx.insert(batch).values({ id: batchId, userId: caller.id, name, type: body.type, engine, params, credits, perFileCredits: s.perFileCredits, total: ids.length });
      for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
        const items = ids.slice(i, i + INSERT_CHUNK).map((fileId, k) => ({ kind: "tool.run" as const, userId: caller.id, tool: { slug: body.type, params, inputFileIds: [fileId] }, origin: "batch" as const, batchId, position: i + k }));
        await enqueueAll(tx, items);
      }
    });
    return { batchId, credits };
  }

  owned(userId: string, batchId: string): Promise<BatchRow> {
    return ownedRow(this.db, batch, batchId, userId, "Batch");
  }

  /** Counters of many batches in one query (the event hub polls with it). */
  async counts(batchIds: string[], db: Pick<Db, "select"> = this.db): Promise<Map<string, Counts>> {
    const out = new Map<string, Counts>();
    if (batchIds.length === 0) return out;
    const n = (status: JobStatus) => sql<number>`(count(*) filter (where ${job.status} = ${status}))::int`;
    const rows = await db
      .select({ batchId: job.batchId, total: sql<number>`count(*)::int`, done: n("succeeded"), failed: n("failed"), cancelled: n("cancelled"), running: n("running"), queued: n("queued") })
      .from(job)
      .where(inArray(job.batchId, batchIds))
      .groupBy(job.batchId);
    for (const r of rows) out.set(r.batchId!, { total: r.total, done: r.done, failed: r.failed, cancelled: r.cancelled, running: r.running, queued: r.queued });
    return out;
  }

  /** id, total and cancelledAt of many batches (for the event hub). */
  rows(ids: string[]) {
    return this.db.select({ id: batch.id, total: batch.total, cancelledAt: batch.cancelledAt }).from(batch).where(inArray(batch.id, ids));
  }

  view(row: BatchRow, c: Counts | undefined) {
    const counts = c ?? { total: row.total, done: 0, failed: 0, cancelled: 0, running: 0, queued: 0 };
    return {
      batchId: row.id,
      id: row.id,
      name: row.name,
      type: row.type,
      engine: row.engine,
      params: row.params,
      credits: row.credits,
      refunded: row.refunded,
      status: batchStatus(counts, row.cancelledAt),
      ...counts,
      total: row.total,
      createdAt: row.createdAt.toISOString(),
    };
  }

  /** Gives the batch another name (any time, running or ended); answers the batch as the list shows it. */
  async rename(userId: string, batchId: string, name: string) {
    const row = await this.owned(userId, batchId);
    const [renamed] = await this.db.update(batch).set({ name: batchName(name) }).where(eq(batch.id, row.id)).returning();
    return this.view(renamed, (await this.counts([row.id])).get(row.id));
  }

  async detail(userId: string, batchId: string) {
    const row = await this.owned(userId, batchId);
    // Each item's input name looked up by its key: joined, the planner hashed the whole file table
    // (every user's) once a batch had a few thousand items.
    const items = await this.db
      .select({ job, filename: sql<string | null>`(select ${file.filename} from ${file} where ${file.id} = ${job.inputFileIds}->>0)` })
      .from(job)
      .where(eq(job.batchId, batchId))
      .orderBy(asc(job.position));
    // Counted from the same rows the items come from: a second query could see a later state.
    const counts = countStatuses(items.map((i) => i.job.status));
    const outputs = await this.outputFiles(items.flatMap((i) => i.job.outputFileIds));
    return {
      batch: this.view(row, counts),
      files: items.map(({ job: j, filename }) => ({
        fileId: j.inputFileIds[0],
        filename,
        jobId: j.id,
        status: j.status,
        errorCode: j.errorCode,
        error: j.errorMessage,
        outFileId: j.outputFileIds[0] ?? null,
        outFileIds: j.outputFileIds,
        outputs: j.outputFileIds.flatMap((id) => outputs.get(id) ?? []),
        attempts: j.attempts,
      })),
    };
  }

  /** Name and size of the output files still stored, by id (retention may have removed some). */
  private async outputFiles(ids: string[]) {
    const out = new Map<string, { fileId: string; filename: string; size: number }>();
    for (let i = 0; i < ids.length; i += INSERT_CHUNK) {
      const rows = await this.db.select({ fileId: file.id, filename: file.filename, size: file.size }).from(file).where(inArray(file.id, ids.slice(i, i + INSERT_CHUNK)));
      for (const r of rows) out.set(r.fileId, r);
    }
    return out;
  }

  async list(userId: string, limit: number, cursor: string | undefined) {
    const rows = await this.pages({ userId }, limit + 1, cursor);
    const { page, nextCursor } = pageOf(rows, limit);
    const counts = await this.counts(page.map((r) => r.id));
    return { items: page.map((r) => this.view(r, counts.get(r.id))), nextCursor };
  }

  /** Stops queued items (refunding their per-file credits); running items finish. */
  async cancel(userId: string, batchId: string) {
    const row = await this.owned(userId, batchId);
    return this.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(batch).where(eq(batch.id, row.id)).for("update");
      // Inside the transaction: PGlite has one connection, a query outside would wait for this one.
      const counts = (await this.counts([row.id], tx)).get(row.id);
      if (isTerminalBatch(batchStatus(counts ?? { total: 0, done: 0, failed: 0, cancelled: 0, running: 0, queued: 0 }, locked.cancelledAt))) {
        throw fail.invalidState("The batch has already ended");
      }
      const cancelled = await cancelQueued(tx, eq(job.batchId, row.id), "The batch was cancelled");
      // Only items that never started are refunded: one back in the queue after a failed attempt has been worked on.
      const refund = cancelled.filter((j) => j.attempts === 0).length * locked.perFileCredits;
      if (refund > 0) await credit(tx, userId, refund, "batch_cancel_refund", row.id);
      await tx.update(batch).set({ cancelledAt: new Date(), refunded: locked.refunded + refund }).where(eq(batch.id, row.id));
      return { batchId: row.id, cancelledItems: cancelled.length, refundedCredits: refund, status: "cancelled" as const };
    });
  }

  /** Puts failed items back in the queue; charges nothing. */
  async retry(userId: string, batchId: string) {
    const row = await this.owned(userId, batchId);
    if (row.cancelledAt) throw fail.invalidState("A cancelled batch cannot be retried");
    const retried = await requeue(this.db, and(eq(job.batchId, row.id), eq(job.status, "failed"))!, { fresh: true });
    if (retried.length === 0) throw fail.invalidState("The batch has no failed items to retry");
    await this.db.update(batch).set({ zipState: null, zipKey: null, zipSize: null, zipSha256: null, zipStartedAt: null }).where(eq(batch.id, row.id));
    return { batchId: row.id, retriedItems: retried.length, credits: 0 };
  }

  async presets(userId: string) {
    const rows = await this.db.select().from(batchPreset).where(eq(batchPreset.userId, userId)).orderBy(desc(batchPreset.createdAt)).limit(500);
    return rows.map((r) => ({ id: r.id, name: r.name, type: r.type, params: r.params, engine: r.engine, createdAt: r.createdAt.toISOString() }));
  }

  async createPreset(userId: string, body: { name: string; type: string; params?: Record<string, unknown>; engine?: string }) {
    const { engine, params } = this.checkTool(body.type, body.engine, body.params);
    const [r] = await this.db.insert(batchPreset).values({ id: newId("pre"), userId, name: body.name, type: body.type, params, engine }).returning();
    return { id: r.id, name: r.name, type: r.type, params: r.params, engine: r.engine, createdAt: r.createdAt.toISOString() };
  }
}

