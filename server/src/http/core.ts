/**
 * Hooks every route shares: a request id on every answer and log line, the JSON body parser
 * (see jsonBody), rate limiting, the one error handler, read-your-own-writes for the caches,
 * and one access log line per request.
 */
import { ServiceError } from "@vektor/shared/errors";
import { parseJsonBody } from "@vektor/shared/json";
import { Elysia } from "elysia";
import type { Services } from "../services";
import { Answered, classifyError, errorResponse } from "./errors";
import { GcPacer } from "./gc-pacer";
import { withinBodyDeadline, type BodyLimits } from "./body-deadline";
import { originOf, type Origin, type TrustProxy } from "./client-address";
import { callerKey } from "./rate-limit";
import { securityHeaders } from "./security-headers";

/** Largest JSON request body; uploads stream through their own routes. */
export const JSON_BODY_LIMIT = 1024 * 1024;

interface RequestMeta {
  id: string;
  start: number;
  body: BodyLimits;
  peer: string | null;
  trust: TrustProxy;
  origin?: Origin;
}

const requestIds = new WeakMap<Request, RequestMeta>();

/** Requests the server makes to itself (its warm-up, tools/warm-up-requests.ts). */
const ownRequests = new WeakSet<Request>();

/** Marks `request` as the server's own: no rate limit counts it and no access line logs it. */
export function ownRequest(request: Request): Request {
  ownRequests.add(request);
  return request;
}

/**
 * The client's address, scheme and host, as TRUST_PROXY lets forwarded headers tell them (the
 * connection's own without it). The rate limit, the access log and Better Auth all use this.
 */
export function requestOrigin(request: Request): Origin {
  const meta = requestIds.get(request);
  if (!meta) return originOf(request, null, { kind: "none" });
  return (meta.origin ??= originOf(request, meta.peer, meta.trust));
}

/** Production's limits, for a request that did not pass through httpCore (none does in the server). */
const DEFAULT_BODY_LIMITS: BodyLimits = { bodyTimeoutMs: 30_000, bodyMinBytesPerSecond: 16_384 };

/** How long this request's body may take (REQUEST_BODY_TIMEOUT_MS, REQUEST_BODY_MIN_RATE). */
export function bodyLimitsOf(request: Request): BodyLimits {
  return requestIds.get(request)?.body ?? DEFAULT_BODY_LIMITS;
}

export function requestIdOf(request: Request): string {
  return requestIds.get(request)?.id ?? "unknown";
}

/** When the request arrived (performance.now()), for JOB_TRACE's breakdown; undefined outside httpCore. */
export function requestStartOf(request: Request): number | undefined {
  return requestIds.get(request)?.start;
}

/** A request body's bytes, at most `limit` of them (413 PAYLOAD_TOO_LARGE beyond, said of `what`), read before anything parses them. */
export async function readCappedBytes(request: Request, limit: number, what = "JSON bodies"): Promise<Uint8Array> {
  const declared = declaredLength(request, limit, what);
  if (!request.body) return new Uint8Array(0);
  if (declared !== null) return withinBodyDeadline(bodyLimitsOf(request), declared, request.bytes());
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  const readAll = async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      total += r.value.byteLength;
      if (total > limit) {
        await reader.cancel();
        throw tooLarge(limit, what);
      }
      chunks.push(r.value);
    }
    return Buffer.concat(chunks);
  };
  // A body of unknown length may be as long as the cap: its deadline is the cap's.
  return withinBodyDeadline(bodyLimitsOf(request), limit, readAll(), () => void reader.cancel().catch(() => {}));
}

/**
 * The body's declared length (Content-Length), or null when it declares none: then it is read
 * chunk by chunk and cut off at `limit`. Declared and within `limit`, it is read whole at once
 * (Bun reads exactly that many bytes): a stream reader costs about 0.1 ms more per request on a
 * machine whose caches went cold between calls. Declared beyond `limit`: 413 before any byte is read.
 */
function declaredLength(request: Request, limit: number, what: string): number | null {
  const header = request.headers.get("content-length");
  const length = header === null ? NaN : Number(header);
  if (!Number.isSafeInteger(length) || length < 0) return null;
  if (length > limit) throw tooLarge(limit, what);
  return length;
}

const tooLarge = (limit: number, what: string) => new ServiceError("PAYLOAD_TOO_LARGE", `${what} are limited to ${limit} bytes`);

async function readCapped(request: Request, limit: number): Promise<string> {
  const declared = declaredLength(request, limit, "JSON bodies");
  if (declared !== null && request.body) return withinBodyDeadline(bodyLimitsOf(request), declared, request.text());
  return new TextDecoder().decode(await readCappedBytes(request, limit));
}

/**
 * The body parser of every JSON route (named, so streaming routes that say `parse: "none"`
 * are never touched): size-capped, depth-capped, and malformed JSON is a VALIDATION_ERROR.
 */
export const jsonBody = new Elysia({ name: "json-body" }).parser("jsonCapped", async ({ request }) => {
  const text = await readCapped(request, JSON_BODY_LIMIT);
  return text.trim() === "" ? undefined : parseJsonBody(text);
});

/** The path of an absolute request URL, without parsing all of it. */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  return start < 0 ? "/" : url.slice(start, end < 0 ? undefined : end);
}

/**
 * Only API calls count against the rate limit: not the web app's static files, and not byte
 * transfers through signed URLs (each was authorised by a presign call, which counts; a bulk
 * upload from one address would otherwise trip the limit).
 */
function isRateLimited(url: string): boolean {
  const path = pathOf(url);
  if (!path.startsWith("/api/")) return false;
  // Probes must tell the truth about the service, not about the prober's address (a load
  // balancer shares it with every client behind the same proxy).
  if (path === "/api/health" || path === "/api/ready") return false;
  return !path.startsWith("/api/files/upload/") && !path.startsWith("/api/files/signed/");
}

const SECURE = /;\s*secure\s*(;|$)/i;

/**
 * Cookies of a request that reached us over HTTPS (itself, or through a trusted proxy that ended
 * TLS) are marked Secure, so a browser never sends the session over plain HTTP; over plain HTTP
 * (a laptop on localhost) they could not be, or the browser would drop them.
 */
function secureCookies(response: Response): void {
  const cookies = response.headers.getSetCookie();
  if (cookies.every((c) => SECURE.test(c))) return;
  response.headers.delete("set-cookie");
  for (const c of cookies) response.headers.append("set-cookie", SECURE.test(c) ? c : `${c}; Secure`);
}

/** The security headers (http/security-headers.ts) for this request's path, HSTS when it came over HTTPS. */
const securityHeadersOf = (request: Request) => securityHeaders(pathOf(request.url), requestOrigin(request).https);

/** GET, HEAD and OPTIONS write nothing a cache keeps. */
const readsOnly = (method: string) => method === "GET" || method === "HEAD" || method === "OPTIONS";

export function httpCore(s: Pick<Services, "log" | "limiter" | "config" | "reads" | "changes" | "env">) {
  const body: BodyLimits = { bodyTimeoutMs: s.env.bodyTimeoutMs, bodyMinBytesPerSecond: s.env.bodyMinBytesPerSecond };
  const gc = new GcPacer();
  // LOG_LEVEL above info skips the access line's work, not just its output.
  const accessLog = s.log.isLevelEnabled("info");
  // A request that may have written is answered once this process's read cache has heard of its
  // writes (Invalidations.caughtUp; at once on PGlite), so its caller reads them back. While the
  // cache keeps and loads nothing there is nothing to drop: no round trip then.
  const caughtUp = () => (s.reads.idle ? undefined : s.changes.caughtUp());
  return new Elysia({ name: "http-core" })
    .onRequest(({ request, set, server }) => {
      const given = request.headers.get("x-request-id");
      const id = given && /^[\w.-]{8,64}$/.test(given) ? given : crypto.randomUUID();
      requestIds.set(request, { id, start: performance.now(), body, peer: server?.requestIP(request)?.address ?? null, trust: s.env.trustProxy });
      set.headers["x-request-id"] = id;
      Object.assign(set.headers, securityHeadersOf(request));
      // A NUL in a path or query value reaches no row: PostgreSQL text cannot hold one.
      if (request.url.includes("%00")) throw new ServiceError("VALIDATION_ERROR", "The URL holds a NUL character (%00); remove it");
      if (!isRateLimited(request.url) || ownRequests.has(request)) return;
      const limit = (perMinute: number) => {
        const retryAfter = s.limiter.hit(callerKey(request, () => requestOrigin(request).address), perMinute);
        if (retryAfter > 0) throw new ServiceError("RATE_LIMITED", `Rate limit of ${perMinute} requests a minute exceeded`, { "retry-after": String(retryAfter) });
      };
      // The setting is almost always in memory: no promise to wait for then.
      const known = s.config.peek("ratelimit.per_minute");
      return known === undefined ? s.config.get("ratelimit.per_minute").then(limit) : limit(known);
    })
    .onAfterHandle({ as: "global" }, async ({ request, responseValue }) => {
      if (responseValue instanceof Response && responseValue.headers.has("set-cookie") && requestOrigin(request).https) secureCookies(responseValue);
      if (!readsOnly(request.method)) await caughtUp();
    })
    .onError({ as: "global" }, async ({ code, error, request }) => {
      const requestId = requestIdOf(request);
      if (error instanceof Answered) {
        error.response.headers.set("x-request-id", requestId);
        for (const [name, value] of Object.entries(securityHeadersOf(request))) error.response.headers.set(name, value);
        return error.response;
      }
      const c = classifyError(error, code, requestId, s.log);
      if (c.code !== "INTERNAL") s.log.debug({ requestId, code: c.code, msg: c.message }, "request refused");
      // A failed write may have written before it failed; one refused by the rate limit has not.
      if (!readsOnly(request.method) && c.code !== "RATE_LIMITED") await caughtUp();
      return errorResponse(c.code, c.message, { "x-request-id": requestId, ...securityHeadersOf(request), ...c.headers }, c.status);
    })
    .onAfterResponse({ as: "global" }, ({ request, set }) => {
      gc.tick();
      if (!accessLog || ownRequests.has(request)) return;
      const meta = requestIds.get(request);
      s.log.info({ requestId: meta?.id, ip: requestOrigin(request).address, method: request.method, path: pathOf(request.url), status: set.status, ms: meta ? Math.round(performance.now() - meta.start) : undefined }, "request");
    });
}
