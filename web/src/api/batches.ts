/** Batches: list, estimate, create, one batch with its items, live progress, cancel, retry; presets. */
import type { BatchDetail, BatchProgress, CreateBatchBody, PresetBody } from "@vektor/shared/schemas/batch";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { client, isBatchFinished } from "./client";

const BATCHES_KEY = ["batches"] as const;
const detailKey = (id: string) => [...BATCHES_KEY, "detail", id] as const;

/** The list; polled while a batch in it still runs (the open one also follows its event stream). */
export const useBatches = () =>
  useQuery({
    queryKey: [...BATCHES_KEY, "list"],
    queryFn: () => client.batches.list({ limit: 50 }),
    refetchInterval: (query) => (query.state.data?.items.some((b) => !isBatchFinished(b)) ? 2000 : false),
  });

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

export const useBatch = (id: string) => useQuery<BatchDetail>({ queryKey: detailKey(id), queryFn: () => client.batches.get(id) });

/**
 * The batch's progress from its event stream (SSE) until it ends; each event also refreshes the
 * batch and its items, so per-file status and error codes follow the stream.
 */
export function useBatchProgress(id: string, enabled: boolean): { progress: BatchProgress | null; error: unknown } {
  const queries = useQueryClient();
  const [progress, setProgress] = useState<BatchProgress | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!enabled) return;
    const stop = new AbortController();
    setError(null);
    void (async () => {
      try {
        for await (const p of client.batches.events(id, { signal: stop.signal })) {
          setProgress(p);
          // The end refreshes the list too (its counters), not only this batch.
          void queries.invalidateQueries({ queryKey: isBatchFinished(p) ? BATCHES_KEY : detailKey(id) });
        }
      } catch (err) {
        if (!stop.signal.aborted) setError(err);
      }
    })();
    return () => stop.abort();
  }, [id, enabled, queries]);
  return { progress, error };
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
