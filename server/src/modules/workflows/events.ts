/**
 * A run's changes for its event stream (GET /api/workflows/runs/{runId}/events). Every run and
 * step row carries `change_seq`, the next value of one sequence at each insert and each update
 * that changes it (migration 0013): an event is a row whose value is above the client's last
 * event id, and its id is that value. A run's writes all hold its row lock, so the values grow
 * in commit order within a run: reading "above N" loses nothing and repeats nothing, whichever
 * process wrote the change and however often the client reconnects.
 *
 * One hub per process reads for every open stream: woken by the tables' NOTIFY (migration 0009,
 * heard by every process through Invalidations), with a slow poll in case a notification is
 * lost; each wake-up reads each watched run once, for all of its streams.
 */
import { isTerminalRun } from "@vektor/shared/schemas/vocab";
import type { RunEvent } from "@vektor/shared/schemas/workflow";
import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { workflowRun, workflowStep } from "../../db/schema";
import type { Logger } from "../../log";
import { runView, stepView } from "./view";

/** The tables whose change may be a run's event. */
export const RUN_EVENT_TABLES = new Set(["workflow_run", "workflow_step"]);
/** The fallback poll is this many job polls (JOB_POLL_MS): a notification normally wakes the hub first. */
export const RUN_EVENT_POLL_FACTOR = 5;

export interface RunChanges {
  /** The run's events after `after`, in id order. */
  events: RunEvent[];
  /** Whether the run has ended (its stream closes once these events are sent). */
  ended: boolean;
}

/**
 * The run's rows changed after `after`, read in one snapshot: two reads at different moments
 * could pair a step's change with a later run change and send the later id first.
 */
export async function readRunChanges(db: Db, runId: string, after: number): Promise<RunChanges | null> {
  return db.transaction(
    async (tx) => {
      const [run] = await tx.select().from(workflowRun).where(eq(workflowRun.id, runId));
      if (!run) return null;
      const steps = await tx
        .select()
        .from(workflowStep)
        .where(and(eq(workflowStep.runId, runId), gt(workflowStep.changeSeq, after)));
      const events: RunEvent[] = steps.map((s) => ({ id: String(s.changeSeq), event: "step", data: stepView(s) }));
      if (run.changeSeq > after) events.push({ id: String(run.changeSeq), event: "run", data: runView(run) });
      events.sort((a, b) => Number(a.id) - Number(b.id));
      return { events, ended: isTerminalRun(run.status) };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

type Listener = (changes: RunChanges) => void;

interface Watch {
  after: number;
  listener: Listener;
  /** This process stops: the stream asks its client to resume, elsewhere, with Last-Event-ID. */
  stopping: () => void;
}

export class RunEventHub {
  private readonly watches = new Map<string, Set<Watch>>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private reading: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly db: Db,
    /** The fallback poll; notifications wake the hub at once. */
    private readonly pollMs: number,
    private readonly log: Logger,
  ) {}

  /** The run's events after `after` (the stream's first answer), or null for an unknown run. */
  read(runId: string, after: number): Promise<RunChanges | null> {
    return readRunChanges(this.db, runId, after);
  }

  /**
   * Calls `listener` with each later batch of the run's events after `after`, and `stopping` when
   * this process stops (close); returns the unsubscribe.
   */
  subscribe(runId: string, after: number, listener: Listener, stopping: () => void): () => void {
    let set = this.watches.get(runId);
    if (!set) this.watches.set(runId, (set = new Set()));
    const watch: Watch = { after, listener, stopping };
    set.add(watch);
    this.timer ??= setInterval(() => this.wake(), this.pollMs);
    // A change may have committed between the first read and now.
    this.wake();
    return () => {
      set.delete(watch);
      if (set.size === 0) this.watches.delete(runId);
      if (this.watches.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** A run or step table changed (or the poll ticked): read the watched runs again. */
  wake(): void {
    if (this.watches.size === 0) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.readAll().finally(() => {
      this.reading = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async readAll(): Promise<void> {
    for (const [runId, set] of [...this.watches]) {
      try {
        await this.readRun(runId, set);
      } catch (err) {
        this.log.warn({ err, runId }, "run events read failed");
      }
    }
  }

  /** One read per run from its furthest-behind stream; each stream gets what lies after its own last id. */
  private async readRun(runId: string, set: Set<Watch>): Promise<void> {
    const watches = [...set];
    if (!watches.length) return;
    // A run deleted meanwhile (its workflow was) has ended too.
    const changes = (await this.read(runId, Math.min(...watches.map((w) => w.after)))) ?? { events: [], ended: true };
    for (const w of watches) {
      const events = changes.events.filter((e) => Number(e.id) > w.after);
      if (!events.length && !changes.ended) continue;
      if (events.length) w.after = Number(events[events.length - 1].id);
      w.listener({ events, ended: changes.ended });
    }
  }

  /**
   * Stops: every open stream is told to reconnect and ended (an endless stream would keep a
   * graceful HTTP stop waiting; its client resumes without a loss on another process), after a
   * read under way.
   */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.reading;
    const watches = [...this.watches.values()].flatMap((set) => [...set]);
    this.watches.clear();
    for (const w of watches) w.stopping();
  }
}
