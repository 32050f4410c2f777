/**
 * The next fire times of a schedule trigger's cron expression, computed in the browser with
 * croner (the library the server reads schedules with, same options: five fields, UTC), so the
 * person sees when it will run before saving. The server's check on save stays the authority.
 */
import { Cron } from "croner";

export type NextFires = { ok: true; times: Date[] } | { ok: false; message: string };

/** Up to `count` fire times of `expr` after `from`, or why the expression is not a schedule. */
export function nextFires(expr: string, count = 5, from = new Date()): NextFires {
  const fields = expr.trim().split(/\s+/).filter(Boolean);
  if (fields.length === 0) return { ok: false, message: "Type a cron expression, e.g. */15 * * * * (every 15 minutes)." };
  if (fields.length !== 5) return { ok: false, message: `A schedule has exactly 5 fields (minute hour day-of-month month day-of-week); this one has ${fields.length}.` };
  try {
    const times = new Cron(fields.join(" "), { timezone: "UTC", mode: "5-part" }).nextRuns(count, from);
    return times.length ? { ok: true, times } : { ok: false, message: "This expression never fires." };
  } catch (err) {
    return { ok: false, message: `Not a valid cron expression: ${(err as Error).message.replace(/^CronPattern: /, "")}` };
  }
}

/** `2025-03-01 14:30 UTC`. */
export const formatUtc = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The same moment in the reader's time zone, with the zone's name. */
export const formatLocal = (d: Date) => d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
