/**
 * Schedule expressions: exactly five fields (minute hour day-of-month month day-of-week), read in
 * UTC, parsed by croner (no timer is started: the queue does the waiting). Six- or seven-field
 * forms (seconds, years) and @nicknames are refused, so a schedule means the same thing in every
 * cron a user knows.
 */
import { fail } from "@vektor/shared/errors";
import { Cron } from "croner";

const OPTIONS = { timezone: "UTC", mode: "5-part" as const };

/** The expression with its fields separated by single spaces, or VALIDATION_ERROR saying what is wrong. */
export function normalizeCron(expr: unknown): string {
  if (typeof expr !== "string" || expr.trim() === "") throw fail.validation("A schedule trigger needs config.cron, a 5-field cron expression in UTC (e.g. \"*/15 * * * *\")");
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) throw fail.validation(`config.cron must have exactly 5 fields (minute hour day-of-month month day-of-week); "${expr}" has ${fields.length}`);
  const normalized = fields.join(" ");
  let cron: Cron;
  try {
    cron = new Cron(normalized, OPTIONS);
  } catch (e) {
    throw fail.validation(`config.cron is not a valid cron expression: ${(e as Error).message.replace(/^CronPattern: /, "")}`);
  }
  if (!cron.nextRun()) throw fail.validation(`config.cron "${normalized}" never fires`);
  return normalized;
}

/** Fire times of `expr` in [from, to), in order. */
export function fireTimes(expr: string, from: Date, to: Date): Date[] {
  const cron = new Cron(expr, OPTIONS);
  const out: Date[] = [];
  for (let t = cron.nextRun(new Date(from.getTime() - 1)); t && t < to; t = cron.nextRun(t)) out.push(t);
  return out;
}

/** Whether `expr` fires at exactly `at` (a fire queued under an older expression no longer does). */
export function firesAt(expr: string, at: Date): boolean {
  try {
    return new Cron(expr, OPTIONS).nextRun(new Date(at.getTime() - 1))?.getTime() === at.getTime();
  } catch {
    return false;
  }
}
