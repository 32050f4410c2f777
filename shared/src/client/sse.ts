/**
 * Server-sent events as an async iterator over fetch (EventSource can send neither a bearer
 * token nor, outside browsers, a cookie). A dropped connection is opened again, with
 * Last-Event-ID when the server named its events; the batch stream starts every connection with
 * the current state, so an event repeated by a reconnect is left out.
 */
import { EventSourceParserStream, type EventSourceMessage } from "eventsource-parser/stream";
import { ApiError } from "./errors";
import type { Transport } from "./transport";

export interface FollowOptions {
  signal?: AbortSignal;
  /** Reconnections in a row without an event before giving up (default 5). */
  maxReconnects?: number;
  /** Wait before a reconnection when the server set no `retry:` (default 1000 ms). */
  retryMs?: number;
}

export interface StreamSpec<T> {
  /** The event name to read (others are skipped). */
  event: string;
  /** True for the event after which the stream ends by design. */
  isLast: (data: T) => boolean;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/** One connection's messages; ends when the server closes the stream. */
async function* messages(t: Transport, path: string, lastId: string | null, onRetry: (ms: number) => void, signal?: AbortSignal): AsyncGenerator<EventSourceMessage> {
  const headers: Record<string, string> = { accept: "text/event-stream" };
  if (lastId) headers["last-event-id"] = lastId;
  const res = await t.fetchOk(path, { headers, signal });
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream({ onRetry })).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * The stream's events of `spec.event`, parsed from JSON, until the last one; reconnects when the
 * connection drops earlier. An ApiError answer (401, 404, ...) ends the iteration with that error.
 */
export async function* follow<T>(t: Transport, path: string, spec: StreamSpec<T>, opts: FollowOptions = {}): AsyncGenerator<T> {
  let lastId: string | null = null;
  let lastData: string | null = null;
  let retryMs = opts.retryMs ?? 1000;
  let failures = 0;
  for (;;) {
    let failure: unknown = null;
    try {
      for await (const msg of messages(t, path, lastId, (ms) => (retryMs = ms), opts.signal)) {
        if (msg.id) lastId = msg.id;
        if (msg.event !== spec.event || msg.data === lastData) continue;
        lastData = msg.data;
        failures = 0;
        const data = JSON.parse(msg.data) as T;
        yield data;
        if (spec.isLast(data)) return;
      }
    } catch (err) {
      // An answer from the server (not found, signed out) will not change by asking again.
      if ((err instanceof ApiError && err.status !== 0) || opts.signal?.aborted) throw err;
      failure = err;
    }
    if (opts.signal?.aborted) opts.signal.throwIfAborted();
    if (++failures > (opts.maxReconnects ?? 5)) {
      throw failure ?? new ApiError(0, "NETWORK_ERROR", "the event stream ended before its last event", null);
    }
    await sleep(retryMs, opts.signal);
  }
}
