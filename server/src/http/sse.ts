/**
 * Server-sent event answers (text/event-stream), as the batch and run streams send them: events
 * as `open` sends them, a comment heartbeat so that proxies and clients see a live connection,
 * and the end when `open` closes the stream or the client leaves.
 */

export interface SseEvent {
  /** Sent as `id:`; a client reconnects with the last one as Last-Event-ID. */
  id?: string;
  event: string;
  data: unknown;
}

export interface SseOut {
  send(event: SseEvent): void;
  /** Ends the stream (after the events sent so far). */
  close(): void;
  /** Ends the stream with `event: reconnect`: the client is to connect again (this process is stopping). */
  reconnect(): void;
}

const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" };

function format(e: SseEvent): string {
  // JSON.stringify escapes line breaks, so the data is always one `data:` line.
  return `${e.id !== undefined ? `id: ${e.id}\n` : ""}event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/**
 * The stream's Response. `open` runs at once with the output and returns what to undo when the
 * stream ends (an unsubscribe); it may send and even close before it returns.
 */
export function sseResponse(open: (out: SseOut) => (() => void) | void, heartbeatMs: number, abort: AbortSignal): Response {
  const enc = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(ctl) {
      let closed = false;
      let cleanup: (() => void) | undefined;
      const write = (text: string) => {
        if (!closed) ctl.enqueue(enc.encode(text));
      };
      const beat = setInterval(() => write(": heartbeat\n\n"), heartbeatMs);
      stop = () => {
        if (closed) return;
        closed = true;
        clearInterval(beat);
        cleanup?.();
        try {
          ctl.close();
        } catch {
          // already closed by the client
        }
      };
      abort.addEventListener("abort", () => stop(), { once: true });
      const send = (e: SseEvent) => write(format(e));
      const reconnect = () => (send({ event: "reconnect", data: {} }), stop());
      const undo = open({ send, close: () => stop(), reconnect }) ?? undefined;
      if (closed) undo?.();
      else cleanup = undo;
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
