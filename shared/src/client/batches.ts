/** Batches (spec "Batch", contract section 6): estimate, create, follow, retry, cancel, ZIP, presets. */
import type {
  Batch,
  BatchCancelled,
  BatchCreated,
  BatchDetail,
  BatchPage,
  BatchProgress,
  BatchRetried,
  BatchSettings,
  CreateBatchBody,
  Estimate,
  Preset,
  PresetBody,
} from "../schemas/batch";
import { isTerminalBatch } from "../schemas/vocab-lists";
import { openDownload } from "./download";
import { enc, qs, type PageQuery } from "./query";
import { follow, type FollowOptions } from "./sse";
import type { Transport } from "./transport";

/** True when the batch ended (completed, failed or cancelled). */
export const isBatchFinished = (p: { status: BatchProgress["status"] }) => isTerminalBatch(p.status);

export function batchesApi(t: Transport) {
  return {
    /** Limits, costs and engines (public). */
    settings: () => t.call<BatchSettings>("GET", "/api/batch/settings"),
    estimate: (fileCount: number) => t.call<Estimate>("POST", "/api/batch/estimate", { fileCount }),
    /** Charged at once: base + per file x N. */
    create: (b: CreateBatchBody) => t.call<BatchCreated>("POST", "/api/batch", b),
    list: (q: PageQuery = {}) => t.call<BatchPage>("GET", `/api/batch${qs({ ...q })}`),
    get: (id: string) => t.call<BatchDetail>("GET", `/api/batch/${enc(id)}`),
    /** A new name (trimmed by the server); answers the batch as the list shows it. */
    rename: (id: string, name: string) => t.call<Batch>("PATCH", `/api/batch/${enc(id)}`, { name }),
    /** The items (files) of a batch with their status, errorCode and outputs. */
    items: async (id: string) => (await t.call<BatchDetail>("GET", `/api/batch/${enc(id)}`)).files,
    cancel: (id: string) => t.call<BatchCancelled>("POST", `/api/batch/${enc(id)}/cancel`, {}),
    /** Re-runs the failed items only; free. */
    retry: (id: string) => t.call<BatchRetried>("POST", `/api/batch/${enc(id)}/retry`, {}),
    /**
     * The progress events, the current state first, ending after the terminal one:
     * `for await (const p of client.batches.events(id)) ...`.
     */
    events: (id: string, opts: FollowOptions = {}) => follow<BatchProgress>(t, `/api/batch/${enc(id)}/events`, { event: "progress", isLast: isBatchFinished }, opts),
    /** Follows the events to the end and answers the last one. */
    waitFor: async (id: string, opts: FollowOptions & { onProgress?: (p: BatchProgress) => void } = {}): Promise<BatchProgress> => {
      let last: BatchProgress | null = null;
      for await (const p of follow<BatchProgress>(t, `/api/batch/${enc(id)}/events`, { event: "progress", isLast: isBatchFinished }, opts)) {
        last = p;
        opts.onProgress?.(p);
      }
      return last!;
    },
    /** The ZIP of the outputs (after the batch ended), streamed. */
    zip: (id: string, opts: { range?: string; signal?: AbortSignal } = {}) => openDownload(t, `/api/batch/${enc(id)}/zip`, opts),
    presets: {
      list: () => t.call<Preset[]>("GET", "/api/batch/presets"),
      create: (b: PresetBody) => t.call<Preset>("POST", "/api/batch/presets", b),
    },
  };
}
