/**
 * A user's tool runs (tool.run jobs): creation (admitted by tools/admission.ts, queued by
 * queue/enqueue.ts), reads, the caller's list, cancel, and waiting for completion. The work
 * itself is done by the queue's runner and the tool.run executor (tools/tool-run.ts), in this
 * process or another one sharing the DB.
 */
import { fail, ServiceError } from "@vektor/shared/errors";
import { isTerminalJob } from "@vektor/shared/schemas/vocab";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { file, job } from "../../db/schema";
import { ownedRow } from "../../db/owned";
import { inJsonList, reusable } from "../../db/reusable";
import { pageOf, preparedPages } from "../../http/cursor";
import { cancelQueued, requestStop } from "../../queue/control";
import { enqueueAdmitted, enqueueAll, type Admitted, type EnqueueTool, type ToolOrigin } from "../../queue/enqueue";
import type { JobRunner } from "../../queue/runner";
import type { InputFile, JobRow } from "../../queue/kinds";
import { admitCount, admitInputs, admitSize, admitTool, orThrow, refusalError, type SizeLimit } from "../../tools/admission";
import { inputLimit } from "@vektor/shared/tools/limits";
import type { ConfigService } from "../../config/service";
import { jobView, runOf, type JobView } from "./view";
import type { HeldJobs } from "../../queue/held";
import { JobEnds } from "../../queue/ends";
import { waitForJob } from "./wait";
import type { ToolRun } from "../../tools/tool-run";
import type { EarlyRun } from "../../tools/early-run";

/** What a job created here needs of this process's runner: a free tool lane to start in. */
type ToolLanes = Pick<JobRunner, "reserveToolLane">;
/** What starts a call's run while its job row is inserted (the tool.run executor, ToolRun). */
type EarlyStarts = Pick<ToolRun, "startEarly" | "hints">;

export interface JobRequest {
  type: string;
  fileIds: string[];
  params?: Record<string, unknown>;
}

const MAX_INPUTS = 100;

// Built once (db/reusable.ts): every poll of a job (GET /api/jobs/{jobId}) runs them.
const usersToolJob = reusable((db) =>
  db
    .select()
    .from(job)
    .where(and(eq(job.id, sql.placeholder("id")), eq(job.userId, sql.placeholder("userId")), eq(job.kind, "tool.run"))),
);
const filesIn = reusable((db) => db.select().from(file).where(inJsonList(file.id, "ids")));

export class ToolRunService {
  private readonly pages;
  private lanes: ToolLanes | null = null;
  private early: EarlyStarts | null = null;
  /** The last job inserted with a lane held here had to wait in the queue: a run begun before its insert would likely be dropped. */
  private lastQueued = false;
  /** Runs begun while their job rows were inserted, since this process started: taken by their jobs, or dropped. */
  readonly earlyRuns = { started: 0, adopted: 0, dropped: 0 };

  constructor(
    private readonly db: Db,
    private readonly config: ConfigService,
    /** After a cancel reached running jobs, this process stops its own at once (others at their next lease renewal). */
    private readonly held?: Pick<HeldJobs, "stop">,
    /** TOOL_MAX_INPUT_MB: no input larger than this (nor than its tool's own limit) is admitted. */
    private readonly maxInputBytes = Infinity,
    /** Where this process's tool executor hands over the ends of the jobs it ran. */
    private readonly ends = new JobEnds(),
  ) {
    this.pages = preparedPages<JobRow>("jobs_list", job.createdAt, job.id, (after) =>
      db
        .select()
        .from(job)
        .where(and(eq(job.userId, sql.placeholder("userId")), eq(job.kind, "tool.run"), after))
        .orderBy(desc(job.createdAt), desc(job.id))
        .limit(sql.placeholder("limit")),
    );
  }

  /** The tool and params check, and the declared file's size where known, before an upload starts. */
  checkRequest(type: string, params: Record<string, unknown> | undefined, upload?: { name: string; size: number }): Record<string, unknown> {
    const tool = orThrow(admitTool(type, params), "notFound");
    const tooLarge = upload && admitSize(this.sizeLimit(tool.manifest), { id: "", ...upload });
    if (tooLarge) throw refusalError(tooLarge, "notFound");
    return tool.params;
  }

  private sizeLimit(tool: SizeLimit["tool"]): SizeLimit {
    return { tool, serverMaxBytes: this.maxInputBytes };
  }

  async create(userId: string, req: JobRequest, origin: ToolOrigin = "api"): Promise<JobView> {
    if (!(await this.config.get("processing.cloud_enabled"))) throw new ServiceError("FEATURE_DISABLED", "Server-side processing is turned off; run the tool in the browser");
    const { manifest, params } = orThrow(admitTool(req.type, req.params), "notFound");
    const ids = req.fileIds;
    if (new Set(ids).size !== ids.length) throw fail.validation("fileIds must not repeat an id");
    const count = admitCount(manifest, ids.length);
    if (count) throw refusalError(count, "notFound");
    if (ids.length === 0 || ids.length > MAX_INPUTS) throw fail.validation(`fileIds must hold 1 to ${MAX_INPUTS} ids`);
    const entry: EnqueueTool = { kind: "tool.run", userId, tool: { slug: req.type, params, inputFileIds: ids }, origin };
    const row = (await this.insert(entry, inputLimit(manifest, this.maxInputBytes))) ?? (await this.insertAfterRefusal(entry, manifest));
    return jobView(row, []);
  }

  /**
   * This process's tool lanes (none in a ROLE=api process): a job created while one is free starts
   * in it, and its run may begin while its row is inserted (`early`).
   */
  runHere(lanes: ToolLanes, early?: EarlyStarts): void {
    this.lanes = lanes;
    this.early = early ?? null;
  }

  /** Files of `userId` just uploaded: a call on them may start its run while its job row is inserted. */
  learnFiles(userId: string, rows: readonly InputFile[]): void {
    this.early?.hints.learn(userId, rows);
  }

  /**
   * Queues the job in one statement with its inputs' admission (enqueueAdmitted); with a free lane
   * here, inserts it already claimed and starts it in that lane (no wake-up, no claim, no read of
   * its inputs' rows), unless work waiting in the queue or the running limits say it must wait its
   * turn. With that lane held, the tool may start on inputs known here before the insert
   * (EarlyRun); the job takes that run only when it starts here on exactly those inputs. Null when
   * an input was refused: nothing was inserted.
   */
  private async insert(entry: EnqueueTool, maxBytes: number): Promise<JobRow | null> {
    const lane = this.lanes?.reserveToolLane() ?? null;
    const { userId, tool } = entry;
    const early = lane && !this.lastQueued ? (this.early?.startEarly(userId, tool.slug, tool.params, tool.inputFileIds) ?? null) : null;
    let admitted: Admitted | null;
    try {
      admitted = await enqueueAdmitted(this.db, entry, maxBytes, lane && { ...(await lane.limits()), leaseMs: lane.leaseMs });
    } catch (err) {
      early?.drop();
      this.count(early, undefined);
      lane?.release();
      throw err;
    }
    const runsHere = !!lane && admitted?.row.status === "running";
    if (lane && admitted) this.lastQueued = !runsHere;
    const adopted = runsHere && early?.matches(admitted!.inputFiles) ? early : undefined;
    if (early && !adopted) early.drop();
    this.count(early, adopted);
    if (runsHere) lane!.run({ ...admitted!.row, inputFiles: admitted!.inputFiles, early: adopted });
    else lane?.release();
    return admitted?.row ?? null;
  }

  /** An input was refused at the insert: admission says why. Should the inputs pass by now (a file confirmed meanwhile), the job is queued. */
  private async insertAfterRefusal(entry: EnqueueTool, manifest: SizeLimit["tool"]): Promise<JobRow> {
    orThrow(await admitInputs(this.db, entry.userId, entry.tool.inputFileIds, this.sizeLimit(manifest)), "notFound");
    return (await enqueueAll(this.db, [entry]))[0];
  }

  private count(early: EarlyRun | null, adopted: EarlyRun | undefined): void {
    if (!early) return;
    this.earlyRuns.started++;
    if (adopted) this.earlyRuns.adopted++;
    else this.earlyRuns.dropped++;
  }

  async get(userId: string, jobId: string): Promise<JobView> {
    const [row] = await usersToolJob(this.db, { id: jobId, userId });
    if (!row) throw fail.notFound("Job");
    return this.view(row);
  }

  async view(row: JobRow): Promise<JobView> {
    const outputs = row.outputFileIds.length ? await filesIn(this.db, { ids: JSON.stringify(row.outputFileIds) }) : [];
    return jobView(row, outputs);
  }

  /** The caller's tool jobs (batch items and workflow steps' jobs included), newest first. */
  async list(userId: string, limit: number, cursor: string | undefined): Promise<{ items: JobView[]; nextCursor: string | null }> {
    const { page, nextCursor } = pageOf(await this.pages({ userId }, limit + 1, cursor), limit);
    const ids = page.flatMap((r) => r.outputFileIds);
    const outputs = ids.length ? await filesIn(this.db, { ids: JSON.stringify(ids) }) : [];
    return { items: page.map((r) => jobView(r, outputs)), nextCursor };
  }

  /**
   * Cancels a job of the caller's own that belongs to no batch and no workflow run (those follow
   * their batch or run: cancelling one item alone would leave the batch's refund or the run's
   * step wrong). A queued job ends cancelled and never runs; a running one is marked, the same
   * mark a workflow cancel sets, and its worker stops it at the next lease renewal (at once when
   * this process runs it). The row is locked, so a claim (SKIP LOCKED) cannot take it meanwhile.
   */
  async cancel(userId: string, jobId: string): Promise<JobView> {
    const { row, stopping } = await this.db.transaction(async (tx) => {
      const [found] = await tx
        .select()
        .from(job)
        .where(and(eq(job.id, jobId), eq(job.userId, userId), eq(job.kind, "tool.run")))
        .for("update");
      if (!found) throw fail.notFound("Job");
      if (isTerminalJob(found.status)) throw fail.invalidState(`The job has already ended (${found.status})`);
      if (found.batchId) throw fail.invalidState(`The job is an item of batch ${found.batchId}: cancel the batch (POST /api/batch/${found.batchId}/cancel)`);
      const runId = runOf(found);
      if (runId) throw fail.invalidState(`The job is part of workflow run ${runId}: cancel the run (POST /api/workflows/runs/${runId}/cancel)`);
      const mine = eq(job.id, found.id);
      if (found.status === "queued") {
        const [cancelled] = await cancelQueued(tx, mine, "The job was cancelled");
        return { row: cancelled ?? found, stopping: false };
      }
      const [marked] = await requestStop(tx, mine);
      return { row: marked ?? found, stopping: true };
    });
    if (stopping) this.held?.stop([row.id]);
    return this.view(row);
  }

  /** The newest job that used `fileId` as an input. */
  async latestForFile(userId: string, fileId: string): Promise<JobView> {
    await ownedRow(this.db, file, fileId, userId, "File");
    const [row] = await this.db
      .select()
      .from(job)
      .where(and(eq(job.userId, userId), sql`${job.inputFileIds} @> ${JSON.stringify([fileId])}::jsonb`))
      .orderBy(desc(job.createdAt))
      .limit(1);
    if (!row) throw fail.notFound("Job for this file");
    return this.view(row);
  }

  /** Tool jobs waiting or running, for /status (control jobs such as the next retention sweep are not work waiting); the tool lane is exactly kind tool.run. */
  async depth(): Promise<number> {
    const [r] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(job)
      // The statuses as literals: the claim index holds live jobs only, and parameters would not say these are.
      .where(and(eq(job.lane, "tool"), sql`${job.status} in ('queued', 'running')`));
    return r.n;
  }

  /**
   * Waits until the job ends or `timeoutMs` passes; answers its latest state either way (wait.ts).
   * `fresh`: the caller just queued it, so there is nothing to read before its end.
   */
  waitFor(userId: string, jobId: string, timeoutMs: number, fresh = false): Promise<JobView> {
    return waitForJob(this, this.ends, userId, jobId, timeoutMs, fresh);
  }
}
