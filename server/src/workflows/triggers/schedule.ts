/**
 * Schedule triggers on the queue. `schedule.dispatch` runs every 5 minutes (one live job under one
 * dedupe key, however many processes; each queues the next where its success is recorded) and
 * queues every schedule trigger's fire times in its window as delayed `schedule.fire` jobs, one
 * per (trigger, fire time) by dedupe key: a schedule at minute 7 fires at minute 7, not at the
 * next dispatch. Consecutive windows join end to start and the next dispatch runs a minute
 * before its window opens, so no fire time falls between two. `schedule.fire` starts the run
 * exactly once (start.ts). A dispatch by hand "as of" a moment (the admin route) takes that
 * moment as the present: fire times at or before it start at once, even one the automatic
 * dispatcher already queued for its minute; later ones wait for their time as usual.
 * `workflow.schedule_enabled` off: the dispatcher queues nothing and a fire already queued
 * starts nothing.
 */
import type { DispatchResult } from "@vektor/shared/schemas/trigger";
import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { resultRows, type Db, type Tx } from "../../db/client";
import { webhookSignature, workflow, workflowTrigger, workflowTriggerFire } from "../../db/schema";
import type { ControlHandler } from "../../queue/registry";
import { dueNow, enqueue } from "../../queue/enqueue";
import { fireTimes, firesAt } from "./cron";
import { fireOnce, loadTrigger, type TriggerJobDeps } from "./start";

export const DISPATCH_WINDOW_MS = 5 * 60_000;
/** The next dispatch runs this long before its window opens, so the window's first fire is queued in time. */
const DISPATCH_LEAD_MS = 60_000;

/** The database's clock: every process agrees on it. */
export async function dbNow(db: Db): Promise<Date> {
  const rows = resultRows<{ ms: number | string }>(await db.execute(sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`));
  return new Date(Math.round(Number(rows[0].ms)));
}

/**
 * Queues the dispatch of the window starting at `from` (default: now) unless a dispatch is already
 * queued or running: every process calls it at start, and only one chain of dispatches exists.
 */
export function scheduleDispatch(db: Db | Tx, from?: Date): Promise<string | null> {
  return enqueue(db, {
    kind: "schedule.dispatch",
    data: from ? { from: from.toISOString() } : {},
    runAfter: from ? new Date(from.getTime() - DISPATCH_LEAD_MS) : undefined,
    dedupeKey: "schedule.dispatch",
  });
}

/**
 * Queues the fire times in [start, end) of every schedule trigger as delayed `schedule.fire`
 * jobs (a time already past runs at once). Fire times that already started their run, or whose
 * job is still queued, are not queued again. With `asOf` (a dispatch by hand), fire times at or
 * before it are due now whatever the clock says, and a job already queued for one of them later
 * is made due now (reported as queued by this call); without it (the automatic dispatcher), each
 * fire runs at its exact time.
 */
export async function dispatchSchedules(d: TriggerJobDeps, start: Date, end: Date, asOf?: Date): Promise<DispatchResult> {
  const result: DispatchResult = { windowStart: start.toISOString(), windowEnd: end.toISOString(), triggers: 0, fires: [] };
  if (!(await d.config.get("workflow.schedule_enabled"))) return result;
  const triggers = await d.db
    .select({ id: workflowTrigger.id, workflowId: workflowTrigger.workflowId, userId: workflow.userId, config: workflowTrigger.config })
    .from(workflowTrigger)
    .innerJoin(workflow, eq(workflow.id, workflowTrigger.workflowId))
    .where(eq(workflowTrigger.type, "schedule"));
  result.triggers = triggers.length;
  if (!triggers.length) return result;
  const done = await d.db
    .select({ triggerId: workflowTriggerFire.triggerId, fireAt: workflowTriggerFire.fireAt })
    .from(workflowTriggerFire)
    .where(and(inArray(workflowTriggerFire.triggerId, triggers.map((t) => t.id)), gte(workflowTriggerFire.fireAt, start), lt(workflowTriggerFire.fireAt, end)));
  const started = new Set(done.map((f) => `${f.triggerId}@${f.fireAt!.getTime()}`));
  for (const t of triggers) {
    let times: Date[];
    try {
      times = fireTimes(String(t.config.cron), start, end);
    } catch (err) {
      d.log.warn({ err, triggerId: t.id }, "schedule trigger has an unreadable cron expression");
      continue;
    }
    for (const at of times) {
      if (started.has(`${t.id}@${at.getTime()}`)) continue;
      const fireAt = at.toISOString();
      const dedupeKey = `schedule.fire:${t.id}:${fireAt}`;
      const due = asOf !== undefined && at.getTime() <= asOf.getTime();
      // Due: no run_after of its own (the database's now), and a live job queued for its minute is brought forward.
      const id = (await enqueue(d.db, { kind: "schedule.fire", data: { triggerId: t.id, fireAt }, userId: t.userId, runAfter: due ? undefined : at, dedupeKey })) ?? (due ? await dueNow(d.db, dedupeKey) : null);
      if (id) result.fires.push({ triggerId: t.id, workflowId: t.workflowId, fireAt });
    }
  }
  return result;
}

/** Forgets accepted hook signatures whose timestamp left the window (a replay of them is refused as expired anyway). */
export async function purgeSignatures(db: Db): Promise<void> {
  await db.delete(webhookSignature).where(lt(webhookSignature.expiresAt, sql`now() - interval '1 minute'`));
}

export function scheduleDispatchHandler(d: TriggerJobDeps): ControlHandler<"schedule.dispatch"> {
  /** Each dispatch's window end, for the next one (set by run, read where its success is recorded). */
  const windowEnds = new Map<string, Date>();
  const windowOf = (from: string | undefined, now: Date) => {
    const wanted = from ? new Date(from) : now;
    // After a long stop, fire times more than one window in the past are dropped, not all run at once.
    const start = new Date(Math.max(wanted.getTime(), now.getTime() - DISPATCH_WINDOW_MS));
    return { start, end: new Date(start.getTime() + DISPATCH_WINDOW_MS) };
  };
  return {
    kind: "schedule.dispatch",
    retry: { attempts: 3, baseDelayMs: 5_000, maxDelayMs: 60_000 },
    async run(job) {
      const { start, end } = windowOf(job.data.from, await dbNow(d.db));
      const result = await dispatchSchedules(d, start, end);
      if (result.fires.length) d.log.info({ windowStart: result.windowStart, fires: result.fires.length }, "schedules dispatched");
      await purgeSignatures(d.db);
      windowEnds.set(job.id, end);
    },
    async onSucceeded(tx, job) {
      const end = windowEnds.get(job.id) ?? windowOf(job.data.from, new Date()).end;
      windowEnds.delete(job.id);
      await scheduleDispatch(tx, end);
    },
    // The window was not dispatched: the next dispatch tries it again.
    onFailed: async (tx, job) => void (await scheduleDispatch(tx, job.data.from ? new Date(job.data.from) : new Date())),
  };
}

export function scheduleFireHandler(d: TriggerJobDeps): ControlHandler<"schedule.fire"> {
  return {
    kind: "schedule.fire",
    retry: { attempts: 5, baseDelayMs: 1_000, maxDelayMs: 60_000 },
    async run(job) {
      const at = new Date(job.data.fireAt);
      const t = await loadTrigger(d.db, job.data.triggerId);
      // Deleted, or its cron changed since this time was queued: nothing to start.
      if (!t || t.type !== "schedule" || !firesAt(String(t.config.cron), at)) return;
      if (!(await d.config.get("workflow.schedule_enabled"))) {
        d.log.info({ triggerId: t.id, fireAt: job.data.fireAt }, "schedule fire skipped: workflow.schedule_enabled is off");
        return;
      }
      await fireOnce(d, t, "schedule", [], { fireAt: at });
    },
  };
}
