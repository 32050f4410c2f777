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
  log.error({ requestId, err: error }, "unexpected error");
  return { code: "INTERNAL" as const, message: `Internal error (request ${requestId})`, headers: {} };
}
