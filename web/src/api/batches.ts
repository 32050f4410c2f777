/**
 * Batches: list, pricing, create, rename, one batch with its items, live progress, cancel, retry;
 * presets; the caller's files to pick from.
 *
 * The list and the open batch show one set of counters (batch-counters.ts): whatever brings news
 * of a batch (the list's poll, the batch's own fetch, an event of its stream) records it there,
 * the newest wins, and both draw from it, so the two never disagree while it runs.
 */
import type { Batch, BatchDetail, BatchPage, CreateBatchBody, PresetBody } from "@vektor/shared/schemas/batch";
import type { FileRecord } from "@vektor/shared/schemas/file";
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { publishCounters, tick } from "./batch-counters";
import { client, isBatchFinished } from "./client";
import { queries as cache } from "./queries";

const BATCHES_KEY = ["batches"] as const;
const LIST_KEY = [...BATCHES_KEY, "list"] as const;
const detailKey = (id: string) => [...BATCHES_KEY, "detail", id] as const;

/** A new name into the list and the batch, whichever are cached. */
function shareName(queries: QueryClient, { batchId: id, name }: Batch) {
  queries.setQueryData<BatchPage>(LIST_KEY, (old) => old && { ...old, items: old.items.map((b) => (b.batchId === id ? { ...b, name } : b)) });
  queries.setQueryData<BatchDetail>(detailKey(id), (old) => old && { ...old, batch: { ...old.batch, name } });
}

/** The list; polled while a batch in it still runs (the open one also follows its event stream). */
export const useBatches = () =>
  useQuery({
    queryKey: LIST_KEY,
    queryFn: async () => {
      const asked = tick();
      const page = await client.batches.list({ limit: 50 });
      for (const b of page.items) publishCounters(cache, b.batchId, b, asked);
      return page;
    },
    refetchInterval: (query) => (query.state.data?.items.some((b) => !isBatchFinished(b)) ? 2000 : false),
  });

/** Pricing and limits of batches (public): base and per-file credits, the plans' file limits. */
export const useBatchSettings = () => useQuery({ queryKey: [...BATCHES_KEY, "settings"], queryFn: () => client.batches.settings(), staleTime: 30_000 });

/** A new name for a batch; the list and the batch show it at once. */
export function useRenameBatch(id: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => client.batches.rename(id, name),
    onSuccess: (batch) => shareName(queries, batch),
  });
}

const FILES_PAGE = 25;
/** The list's page size when every matching file is gathered (its largest). */
const ALL_PAGE = 200;

/**
 * A page of the caller's files whose names contain `q` (the server searches), for the picker;
 * only UPLOADED files can go in a batch, so the others are left out of the page.
 */
export function usePickableFiles(q: string, cursor: string | undefined) {
  return useQuery({
    queryKey: [...BATCHES_KEY, "pick", q, cursor ?? ""],
    queryFn: async () => {
      const page = await client.files.list({ limit: FILES_PAGE, cursor, q: q || undefined });
      return { items: page.items.filter(pickable), nextCursor: page.nextCursor };
    },
    placeholderData: keepPreviousData,
  });
}

const pickable = (f: FileRecord) => f.status === "UPLOADED";

/** Every file matching `q`, page after page (for "select all"), up to `max`. */
export async function allPickableFiles(q: string, max: number, signal?: AbortSignal): Promise<FileRecord[]> {
  const out: FileRecord[] = [];
  let cursor: string | undefined;
  do {
    if (signal?.aborted) break;
    const page = await client.files.list({ limit: ALL_PAGE, cursor, q: q || undefined });
    out.push(...page.items.filter(pickable));
    cursor = page.nextCursor ?? undefined;
  } while (cursor && out.length < max);
  return out.slice(0, max);
}

export const useEstimate = (fileCount: number) =>
  useQuery({ queryKey: [...BATCHES_KEY, "estimate", fileCount], queryFn: () => client.batches.estimate(fileCount), enabled: fileCount > 0 });

export function useCreateBatch() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateBatchBody) => client.batches.create(body),
    onSuccess: () => void queries.invalidateQueries(),
  });
}

const PRESETS_KEY = [...BATCHES_KEY, "presets"] as const;

export const usePresets = () => useQuery({ queryKey: PRESETS_KEY, queryFn: () => client.batches.presets.list() });

export function useCreatePreset() {
  const queries = useQueryClient();
  return useMutation({ mutationFn: (body: PresetBody) => client.batches.presets.create(body), onSuccess: () => queries.invalidateQueries({ queryKey: PRESETS_KEY }) });
}

export function useBatch(id: string) {
  const queries = useQueryClient();
  return useQuery<BatchDetail>({
    queryKey: detailKey(id),
    queryFn: async () => {
      const asked = tick();
      const detail = await client.batches.get(id);
      publishCounters(queries, id, detail.batch, asked);
      return detail;
    },
  });
}

/**
 * Follows the batch's event stream (SSE) until it ends: each event's counters go where the list
 * and the batch read them (batch-counters.ts), and refresh the batch and its items, so per-file
 * status and error codes follow the stream. Answers the stream's error, if any.
 */
export function useBatchProgress(id: string, enabled: boolean): { error: unknown } {
  const queries = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!enabled) return;
    const stop = new AbortController();
    setError(null);
    void (async () => {
      try {
        for await (const p of client.batches.events(id, { signal: stop.signal })) {
          publishCounters(queries, id, p, tick());
          // The end refreshes the list too: its rows' own statuses decide whether it keeps polling.
          void queries.invalidateQueries({ queryKey: isBatchFinished(p) ? BATCHES_KEY : detailKey(id) });
        }
      } catch (err) {
        if (!stop.signal.aborted) setError(err);
      }
    })();
    return () => stop.abort();
  }, [id, enabled, queries]);
  return { error };
}

/** Cancel or retry; either way the batch is followed again. */
export function useBatchAction(id: string, onDone: () => void) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (action: "cancel" | "retry"): Promise<void> => void (action === "cancel" ? await client.batches.cancel(id) : await client.batches.retry(id)),
    onSuccess: () => (onDone(), void queries.invalidateQueries({ queryKey: BATCHES_KEY })),
  });
}

export const zipHref = (id: string) => client.t.url(`/api/batch/${encodeURIComponent(id)}/zip`);
