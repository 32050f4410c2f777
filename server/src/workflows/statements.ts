/**
 * The statements every workflow transition runs, built once (db/reusable.ts): a transition is a
 * transaction, so drizzle's own `.prepare()` could not keep them, and a 5-step run built about
 * 37 statements' SQL anew. Values go as placeholders named after their columns; a nullable
 * timestamp goes as ISO text (a column's encoder does not take null).
 */
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import { TERMINAL_RUN_STATUSES } from "@vektor/shared/schemas/vocab";
import { into, intoColumns, reusable, reusableFamily } from "../db/reusable";
import { workflowRun, workflowStep } from "../db/schema";

const p = sql.placeholder;

/** A nullable timestamp's placeholder: given as ISO text or null (`isoOrNull`). */
const nullableAt = (name: string) => sql<Date | null>`${p(name)}::timestamptz`;

export const isoOrNull = (at: Date | null) => at?.toISOString() ?? null;

/** The run's row, locked for the transaction (engine.ts lockRun). */
export const lockedRun = reusable((db) => db.select().from(workflowRun).where(eq(workflowRun.id, p("id"))).for("update"));

/** The run's row, unlocked. */
export const runById = reusable((db) => db.select().from(workflowRun).where(eq(workflowRun.id, p("id"))));

export const stepById = reusable((db) => db.select().from(workflowStep).where(eq(workflowStep.id, p("id"))));

export const stepsOfRun = reusable((db) => db.select().from(workflowStep).where(eq(workflowStep.runId, p("runId"))));

/** A step queued as a workflow.step job: running from now, its attempt counted, its inputs fixed. */
export const startStep = reusable((db) =>
  db
    .update(workflowStep)
    .set({ status: "running", attempts: into("attempts"), inputFileIds: into("inputFileIds"), outputFileIds: [], jobIds: [], errorCode: null, errorMessage: null, startedAt: into("startedAt"), finishedAt: null })
    .where(eq(workflowStep.id, p("id"))),
);

/** Every column a transition may change, as an inline step's run leaves them (engine.ts runInline). */
export const writeStep = reusable((db) =>
  db
    .update(workflowStep)
    .set({
      status: into("status"),
      attempts: into("attempts"),
      charged: into("charged"),
      inputFileIds: into("inputFileIds"),
      outputFileIds: into("outputFileIds"),
      jobIds: into("jobIds"),
      logs: into("logs"),
      errorCode: into("errorCode"),
      errorMessage: into("errorMessage"),
      startedAt: nullableAt("startedAt"),
      finishedAt: nullableAt("finishedAt"),
    })
    .where(eq(workflowStep.id, p("id"))),
);

/**
 * A transition of a step already started, written if this attempt still owns it, with `logs`
 * appended: one statement per set of columns changed (columnsOf).
 */
export const recordStep = reusableFamily((db, columns) =>
  db
    .update(workflowStep)
    .set({ ...intoColumns(columns), logs: sql`${workflowStep.logs} || ${p("logs")}::jsonb` })
    .where(and(eq(workflowStep.id, p("id")), eq(workflowStep.attempts, p("attempts")), inArray(workflowStep.status, ["running", "waiting_approval"])))
    .returning({ id: workflowStep.id }),
);

export const setRunStatus = reusable((db) => db.update(workflowRun).set({ status: into("status") }).where(eq(workflowRun.id, p("id"))));

/** The run's terminal status, only if it has none yet (the guard that makes it happen once). */
export const finishRun = reusable((db) =>
  db
    .update(workflowRun)
    .set({ status: into("status"), errorCode: into("errorCode"), errorMessage: into("errorMessage"), outputFileIds: into("outputFileIds"), finishedAt: into("finishedAt") })
    .where(and(eq(workflowRun.id, p("id")), notInArray(workflowRun.status, [...TERMINAL_RUN_STATUSES])))
    .returning(),
);
