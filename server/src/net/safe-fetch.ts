/**
 * Fetches a user-supplied URL for `import-url` without letting the user reach the server's own
 * network: every hop (the URL and each redirect target) goes through `checkUrl`, and the
 * connection is made to the address that was checked, so a DNS answer cannot change between the
 * check and the connect (DNS rebinding). Size and time are capped while the body streams.
 * `guardedRequest` is the same guarded hop-by-hop request for other methods: outbound completion
 * webhooks POST through it (workflows/notify/webhook.ts).
 */
import { ServiceError, type ErrorCode } from "@vektor/shared/errors";
import { checkUrl, isIpLiteral, type GuardOptions } from "./address-guard.ts";

export interface SafeFetchOptions extends GuardOptions {
  maxBytes: number;
  /** Covers DNS, connect, headers and the whole body. */
  timeoutMs: number;
  /** Default 5 (contract section 5). */
  maxRedirects?: number;
}

export interface SafeFetchResult {
  body: ReadableStream<Uint8Array>;
  finalUrl: string;
  contentType: string | null;
  contentLength: number | null;
  /** From Content-Disposition or the last path segment. */
  filename: string | null;
}

/** How to reach one checked address while the server still sees the original host. */
export interface PinnedTarget {
  /** The URL with its host replaced by the IP literal. */
  href: string;
  /** The original `host[:port]`, sent as the Host header. */
  host: string;
  /** For https by name: certificate and SNI are checked against the name, not the IP. */
  tls?: { serverName: string };
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Pins a request to `address`. Bun's fetch verifies the certificate against `tls.serverName`
 * (checked in Bun 1.4.5: a wrong name fails with ERR_TLS_CERT_ALTNAME_INVALID), so https is
 * pinned as well as http. Exported so the https path can be tested against a local TLS server.
 */
export function pinTarget(url: URL, address: string): PinnedTarget {
  const target = new URL(url.href);
  target.hostname = address.includes(":") ? `[${address}]` : address;
  // URL setters fail silently; if the host did not change we would connect by name again.
  if (!isIpLiteral(target.hostname)) throw new ServiceError("IMPORT_BLOCKED", "the resolved address cannot be used");
  const name = url.hostname.replace(/\.$/, "");
  const tls = url.protocol === "https:" && !isIpLiteral(name) ? { serverName: name } : undefined;
  return { href: target.href, host: url.host, tls };
}

/** Fetches `raw` under the guard. Throws ServiceError; the returned body errors with one. */
export async function safeFetch(raw: string, opts: SafeFetchOptions): Promise<SafeFetchResult> {
  const abort = new AbortController();
  const seconds = opts.timeoutMs / 1000;
  const timer = setTimeout(() => abort.abort(fail("VALIDATION_ERROR", `import timed out after ${seconds} s`)), opts.timeoutMs);
  const finish = () => clearTimeout(timer);
  try {
    const { url, response } = await followRedirects(raw, opts, abort.signal);
    const declared = declaredLength(response.headers);
    if (declared !== null && declared > opts.maxBytes) throw tooLarge(opts.maxBytes);
    return {
      body: limitBody(response.body, opts.maxBytes, abort, finish),
      finalUrl: url.href,
      contentType: response.headers.get("content-type"),
      contentLength: isEncoded(response.headers) ? null : declared,
      filename: filenameOf(response.headers.get("content-disposition"), url),
    };
  } catch (error) {
    finish();
    abort.abort(); // drops the connection without reading the body (early 413, error statuses)
    throw error;
  }
}

async function followRedirects(raw: string, opts: SafeFetchOptions, signal: AbortSignal): Promise<{ url: URL; response: Response }> {
  const { url, response } = await guardedRequest(raw, { ...opts, signal });
  return { url, response: okOrThrow(response) };
}

export interface GuardedRequestOptions extends GuardOptions {
  signal: AbortSignal;
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  /** Default 5 (contract section 5). */
  maxRedirects?: number;
}

/**
 * One request under the guard: the URL and every redirect target are checked and connected to
 * by the checked address. A redirect is followed with the same method, headers and body (a
 * completion webhook that moved still gets its POST). Answers the last response, whatever its
 * status; throws ServiceError IMPORT_BLOCKED when the guard refuses a hop.
 */
export async function guardedRequest(raw: string, opts: GuardedRequestOptions): Promise<{ url: URL; response: Response }> {
  const maxRedirects = opts.maxRedirects ?? 5;
  let next = raw;
  for (let hop = 0; ; hop++) {
    const { url, addresses } = await untilAborted(checkHop(next, hop, opts), opts.signal);
    const response = await fetchPinned(url, addresses, opts);
    if (!REDIRECT_STATUSES.has(response.status) || !response.headers.has("location")) return { url, response };
    await response.body?.cancel();
    if (hop >= maxRedirects) throw fail("IMPORT_BLOCKED", `too many redirects (more than ${maxRedirects})`);
    next = resolveLocation(response.headers.get("location") ?? "", url);
  }
}

async function checkHop(raw: string, hop: number, opts: GuardOptions): Promise<{ url: URL; addresses: string[] }> {
  try {
    return await checkUrl(raw, opts);
  } catch (error) {
    if (hop > 0 && error instanceof ServiceError && error.code === "IMPORT_BLOCKED") throw fail("IMPORT_BLOCKED", `redirect blocked: ${error.message}`);
    throw error;
  }
}

/** Tries each checked address in order (a host may list an IPv6 address this machine cannot reach). */
async function fetchPinned(url: URL, addresses: string[], opts: GuardedRequestOptions): Promise<Response> {
  const { signal } = opts;
  let lastError: unknown;
  for (const address of addresses) {
    const target = pinTarget(url, address);
    try {
      // keepalive off: an import is one request, and a pooled connection to this IP opened for
      // another name must not be reused.
      const init = { method: opts.method ?? "GET", headers: { ...opts.headers, host: target.host }, body: opts.body, tls: target.tls, redirect: "manual" as const, keepalive: false, signal };
      return await fetch(target.href, init);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      lastError = error;
    }
  }
  const code = (lastError as { code?: string } | undefined)?.code;
  throw fail("VALIDATION_ERROR", `could not connect to "${url.hostname}"${code ? ` (${code})` : ""}`);
}

function okOrThrow(response: Response): Response {
  if (response.ok) return response;
  throw fail("VALIDATION_ERROR", `remote server answered ${response.status}`);
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw fail("VALIDATION_ERROR", "the remote server redirected to an invalid URL");
  }
}

/** DNS lookups cannot be cancelled, but the caller must not wait past the deadline for one. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function declaredLength(headers: Headers): number | null {
  const header = headers.get("content-length")?.trim();
  return header && /^\d+$/.test(header) ? Number(header) : null;
}

/** Content-Length counts the encoded bytes; fetch decompresses, so for an encoded response the
 * header does not describe the stream we return (it still bounds it for the early 413). */
function isEncoded(headers: Headers): boolean {
  const encoding = headers.get("content-encoding")?.trim().toLowerCase();
  return Boolean(encoding) && encoding !== "identity";
}

/** Counts bytes as they pass and errors the stream once more than `maxBytes` have come through;
 * the chunk that crosses the cap is never handed to the consumer. */
function limitBody(source: ReadableStream<Uint8Array> | null, maxBytes: number, abort: AbortController, finish: () => void): ReadableStream<Uint8Array> {
  const reader = (source ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() })).getReader();
  let seen = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        finish();
        controller.error(abort.signal.reason instanceof ServiceError ? abort.signal.reason : fail("VALIDATION_ERROR", `import failed while reading: ${String(error)}`));
        return;
      }
      if (chunk.done) {
        finish();
        controller.close();
        return;
      }
      seen += chunk.value.byteLength;
      if (seen <= maxBytes) {
        controller.enqueue(chunk.value);
        return;
      }
      finish();
      abort.abort(tooLarge(maxBytes)); // closes the connection instead of draining it
      controller.error(tooLarge(maxBytes));
    },
    cancel(reason) {
      finish();
      // Cancelling the reader releases the connection; also aborting made Bun 1.4.5 throw.
      return reader.cancel(reason);
    },
  });
}

function filenameOf(disposition: string | null, url: URL): string | null {
  const fromHeader = disposition ? dispositionName(disposition) : null;
  const fromPath = url.pathname.split("/").pop() ?? "";
  return basename(fromHeader ?? safeDecode(fromPath));
}

/** RFC 6266: prefer the RFC 5987 `filename*` form, else the plain `filename`. */
function dispositionName(header: string): string | null {
  const extended = /filename\*\s*=\s*([\w!#$%&+^`{}~.-]+)'[^']*'([^;\s]+)/i.exec(header);
  if (extended) return safeDecode(extended[2]);
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
  return plain ? (plain[1]?.replace(/\\(.)/g, "$1") ?? plain[2]) : null;
}

/** A remote server chooses this name; only its last component is kept. */
function basename(name: string): string | null {
  const last = name.split(/[/\\]/).pop()?.trim() ?? "";
  return last === "" || last === "." || last === ".." ? null : last;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function tooLarge(maxBytes: number): ServiceError {
  return fail("PAYLOAD_TOO_LARGE", `the remote file is larger than the import limit of ${maxBytes} bytes`);
}

function fail(code: ErrorCode, message: string): ServiceError {
  return new ServiceError(code, message);
}
