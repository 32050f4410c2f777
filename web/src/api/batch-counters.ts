/**
 * Each batch's latest counters, kept once: the list's row and the open batch both draw them from
 * this one entry, so a single change reaches both in the same render and the two never disagree.
 *
 * News comes from three places that race: the list's poll, the batch's own fetch and its event
 * stream. A fetch answered late must not undo what a newer event already showed (an answer read
 * at 3 of 5 arriving after the event "completed"), so every piece of news carries the moment the
 * page asked for it, and older news is dropped.
 */
import type { BatchStatus } from "@vektor/shared/schemas/batch";
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { isBatchFinished } from "@vektor/shared/client";

export interface Counters {
  status: BatchStatus;
  total: number;
  done: number;
  failed: number;
  cancelled?: number;
}

/** Counters and when the page asked for them (its own order of events, not the server's clock). */
export interface Seen {
  counters: Counters;
  at: number;
}

let clock = 0;
/**
 * A moment in the page's order of news. Take it before sending a request: its answer is at least
 * as new as that moment. An event takes it when it arrives.
 */
export const tick = () => ++clock;

/** Items that ended one way or another (what the bar fills with). */
export const endedOf = (c: Counters) => c.done + c.failed + (c.cancelled ?? 0);

/**
 * Whether `news` replaces `old`: never when asked for earlier; and while a batch runs its ended
 * items never go back (an event sent before a fetch's answer but read after it). A finished batch
 * may run again (retry), so from or to a finished state only the moment decides.
 */
export function isFresher(old: Seen | undefined, news: Seen): boolean {
  if (!old) return true;
  if (news.at < old.at) return false;
  if (isBatchFinished(old.counters) || isBatchFinished(news.counters)) return true;
  return endedOf(news.counters) >= endedOf(old.counters);
}

const countersKey = (id: string) => ["batch-counters", id] as const;

const pick = ({ status, total, done, failed, cancelled }: Counters): Counters => ({ status, total, done, failed, cancelled });

/** Records a batch's counters heard at moment `at`, unless what is shown is newer. */
export function publishCounters(queries: QueryClient, id: string, counters: Counters, at: number): void {
  const news = { counters: pick(counters), at };
  if (isFresher(queries.getQueryData<Seen>(countersKey(id)), news)) queries.setQueryData(countersKey(id), news);
}

/** A batch's latest counters; `fallback` (the row or detail at hand) until any were recorded. */
export function useCounters<C extends Counters | undefined>(id: string, fallback: C): Counters | C {
  // Never fetched: only publishCounters fills it.
  const { data } = useQuery<Seen | null>({ queryKey: countersKey(id), queryFn: () => null, enabled: false, staleTime: Infinity });
  return data?.counters ?? fallback;
}
