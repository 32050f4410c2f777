/**
 * The one place a thrown error becomes an HTTP answer: ServiceError keeps its code, Elysia's
 * validation and parse failures become VALIDATION_ERROR, an unknown route NOT_FOUND, and
 * anything else INTERNAL with the request id in the message (the stack goes to the log only).
 */
import { ERROR_CATALOG, ServiceError, type ErrorCode } from "@vektor/shared/errors";
import { ValidationError } from "elysia";
import type { Logger } from "../log";

/**
 * A refusal that already is its answer (the MCP route's JSON-RPC errors): onError sends its
 * response as it is instead of the error envelope.
 */
export class Answered extends Error {
  constructor(readonly response: Response) {
    super(`answered ${response.status}`);
  }
}

export function errorResponse(code: ErrorCode, message: string, headers: Record<string, string> = {}, status?: number): Response {
  return new Response(JSON.stringify({ ok: false, error: { code, message } }), {
    status: status ?? ERROR_CATALOG[code].status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

function describeValidation(error: ValidationError): string {
  const where = error.type === "body" ? "body" : error.type;
  const details = error.all.slice(0, 5).map((e) => {
    const path = "path" in e && e.path ? e.path.replace(/^\//, "").replaceAll("/", ".") : "";
    const msg = "summary" in e && e.summary ? e.summary : e.message;
    return path ? `${where}.${path}: ${msg}` : `${where}: ${msg}`;
  });
  return details.length ? details.join("; ") : `Invalid ${where}`;
}

/** The error and its causes, outermost first (drizzle wraps the driver's error, Elysia a parser's). */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < 8; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

const DISK_FULL_ERRNO = new Set(["ENOSPC", "EDQUOT"]);
/** PostgreSQL's SQLSTATE disk_full; a write that failed for want of space says "No space left". */
const DB_DISK_FULL = "53100";

/**
 * Where a failure came from a full disk (or an exhausted quota): "objects" for a file write
 * (ENOSPC, EDQUOT), "database" when the database could not write (SQLSTATE 53100); else null.
 */
export function diskFullIn(error: unknown): "objects" | "database" | null {
  const chain = causeChain(error);
  const code = (e: unknown) => (e as { code?: unknown } | null)?.code;
  if (chain.some((e) => code(e) === DB_DISK_FULL)) return "database";
  if (chain.some((e) => DISK_FULL_ERRNO.has(String(code(e))))) return "objects";
  // PGlite's file system reports a full disk inside Postgres, which says so in its message.
  if (chain.some((e) => e instanceof Error && /No space left on device|Disk quota exceeded/i.test(e.message))) return "database";
  return null;
}

/**
 * A full disk's answer: 507 STORAGE_FULL for the object store, 503 when the database cannot
 * write (a status that tells clients to come back, which they can once space is freed).
 */
export function diskFullAnswer(where: "objects" | "database"): { code: "STORAGE_FULL"; message: string; headers: Record<string, string>; status?: number } {
  return where === "objects"
    ? { code: "STORAGE_FULL" as const, message: ERROR_CATALOG.STORAGE_FULL.message, headers: {} }
    : { code: "STORAGE_FULL" as const, message: "The server's database has no room left to write: nothing was changed; retry later, or ask its operator to free space", headers: { "retry-after": "60" }, status: 503 };
}

/**
 * True when an S3 call failed for want of the store, not by the store's verdict: the SDK marks
 * every error it throws with `$metadata`, and a refused connection, a timeout or a 5xx has no
 * 4xx status there.
 */
export function storeUnavailable(error: unknown): boolean {
  return causeChain(error).some((e) => {
    const meta = (e as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata;
    return meta !== undefined && (meta.httpStatusCode === undefined || meta.httpStatusCode >= 500);
  });
}

/** Maps any thrown value to [code, message, status?, headers]. */
export function classifyError(error: unknown, elysiaCode: string | number, requestId: string, log: Logger) {
  // A ServiceError thrown inside a body parser arrives wrapped in Elysia's ParseError.
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (elysiaCode === "PARSE" && cause instanceof ServiceError) error = cause;
  if (error instanceof ServiceError) {
    return { code: error.code, message: error.message, headers: error.headers, status: error.statusOverride };
  }
  if (error instanceof ValidationError) {
    if (error.type === "response") {
      log.error({ requestId, err: describeValidation(error) }, "response failed its own schema");
      return { code: "INTERNAL" as const, message: `Internal error (request ${requestId})`, headers: {} };
    }
    return { code: "VALIDATION_ERROR" as const, message: describeValidation(error), headers: {} };
  }
  if (elysiaCode === "PARSE") return { code: "VALIDATION_ERROR" as const, message: "Malformed request body", headers: {} };
  if (elysiaCode === "NOT_FOUND") return { code: "NOT_FOUND" as const, message: "No such route", headers: {} };
  if (storeUnavailable(error)) {
    log.error({ requestId, err: error }, "the object store cannot be reached");
    const headers: Record<string, string> = { "retry-after": "30" };
    return { code: "STORAGE_UNAVAILABLE" as const, message: ERROR_CATALOG.STORAGE_UNAVAILABLE.message, headers };
  }
  const full = diskFullIn(error);
  if (full) {
    log.error({ requestId, err: error }, `the ${full === "objects" ? "object store's" : "database's"} disk is full`);
    return diskFullAnswer(full);
  }
  log.error({ requestId, err: error }, "unexpected error");
  return { code: "INTERNAL" as const, message: `Internal error (request ${requestId})`, headers: {} };
}
