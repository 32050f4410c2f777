/**
 * Server-sent events as an async iterator over fetch (EventSource can send neither a bearer
 * token nor, outside browsers, a cookie). A dropped connection is opened again, with
 * Last-Event-ID when the server named its events. `follow` reads streams of states (the batch
 * stream starts every connection with the current state, so an event repeated by a reconnect is
 * left out); `resume` reads streams of changes, whose every event has an id and whose server
 * answers Last-Event-ID with exactly the changes after it (the run stream).
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

/** What a connection of `reconnecting` tells it: the server's `retry:` and that an event came. */
interface Connection {
  onRetry: (ms: number) => void;
  progressed: () => void;
}

/**
 * Opens connections one after another until one reports the end (returns true). An ApiError
 * answer (401, 404, ...) or an abort ends the iteration with that error; more than
 * `maxReconnects` connections in a row without an event, with the last failure.
 */
async function* reconnecting<T>(opts: FollowOptions, connection: (c: Connection) => AsyncGenerator<T, boolean>): AsyncGenerator<T> {
  let retryMs = opts.retryMs ?? 1000;
  let failures = 0;
  const c: Connection = { onRetry: (ms) => (retryMs = ms), progressed: () => (failures = 0) };
  for (;;) {
    let failure: unknown = null;
    try {
      if (yield* connection(c)) return;
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

/**
 * The stream's events of `spec.event`, parsed from JSON, until the last one; reconnects when the
 * connection drops earlier. An ApiError answer (401, 404, ...) ends the iteration with that error.
 */
export function follow<T>(t: Transport, path: string, spec: StreamSpec<T>, opts: FollowOptions = {}): AsyncGenerator<T> {
  let lastId: string | null = null;
  let lastData: string | null = null;
  return reconnecting(opts, async function* (c) {
    for await (const msg of messages(t, path, lastId, c.onRetry, opts.signal)) {
      if (msg.id) lastId = msg.id;
      if (msg.event !== spec.event || msg.data === lastData) continue;
      lastData = msg.data;
      c.progressed();
      const data = JSON.parse(msg.data) as T;
      yield data;
      if (spec.isLast(data)) return true;
    }
    return false;
  });
}

/** The event a stream of changes ends with when its server process stops: connect again. */
const RECONNECT = "reconnect";

/** An event of a stream of changes, as `resume` yields it. */
export interface StreamEvent<E extends string = string, D = unknown> {
  id: string;
  event: E;
  data: D;
}

export interface ResumeOptions extends FollowOptions {
  /** Start after this event (an id seen in an earlier iteration): only later changes come. */
  lastEventId?: string;
}

/**
 * Every event of `names` of a stream of changes, in order, each once: a dropped connection, or
 * one the server ended with `event: reconnect`, is opened again with Last-Event-ID. Ends when the server closes the stream after an event for
 * which `isEnd` is true, or closes a resumed connection at once (nothing newer will come: the
 * end was reached before). An ApiError answer ends the iteration with that error.
 */
export function resume<T extends StreamEvent>(t: Transport, path: string, names: readonly T["event"][], isEnd: (e: T) => boolean, opts: ResumeOptions = {}): AsyncGenerator<T> {
  let lastId: string | null = opts.lastEventId ?? null;
  let ended = false;
  return reconnecting(opts, async function* (c) {
    let received = 0;
    for await (const msg of messages(t, path, lastId, c.onRetry, opts.signal)) {
      // The server process is stopping: another one takes over from the last id.
      if (msg.event === RECONNECT) return false;
      if (!msg.id || !names.includes(msg.event as T["event"])) continue;
      lastId = msg.id;
      received++;
      c.progressed();
      const e = { id: msg.id, event: msg.event, data: JSON.parse(msg.data) } as T;
      ended ||= isEnd(e);
      yield e;
    }
    return ended || (received === 0 && lastId !== null);
  });
}
