/** What the stores need to know about an upload request before reading it. */

/** The Content-Length a request declares, or NaN when it has none (a chunked body). */
export function declaredLength(request: Request): number {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : NaN;
}

/** The body of a request or the stream itself; an empty stream for a request without a body. */
export function bodyStream(source: Request | ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  return source instanceof Request ? (source.body ?? new Blob([]).stream()) : source;
}
