/**
 * The one catalog of error codes (contract section 4). Every failure the service returns is
 * `{ ok: false, error: { code, message } }` with one of these codes and its HTTP status.
 */
export const ERROR_CATALOG = {
  VALIDATION_ERROR: { status: 400, message: "The request is not valid" },
  UNAUTHORIZED: { status: 401, message: "Unauthorized" },
  WEBHOOK_SIGNATURE_INVALID: { status: 401, message: "Webhook signature is invalid" },
  WEBHOOK_SIGNATURE_EXPIRED: { status: 401, message: "Webhook signature has expired" },
  INSUFFICIENT_CREDITS: { status: 402, message: "Not enough credits" },
  FORBIDDEN: { status: 403, message: "Forbidden" },
  FEATURE_DISABLED: { status: 403, message: "This feature is disabled" },
  NOT_FOUND: { status: 404, message: "Not found" },
  INVALID_STATE: { status: 409, message: "The resource is not in a state that allows this" },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: "Idempotency-Key was used with a different request" },
  REQUEST_TIMEOUT: { status: 408, message: "The request body arrived too slowly: send it again on a faster connection, or in smaller parts" },
  PAYLOAD_TOO_LARGE: { status: 413, message: "Payload too large" },
  LIMIT_EXCEEDED: { status: 422, message: "A configured limit was exceeded" },
  FILE_SIGNATURE_MISMATCH: { status: 422, message: "File content does not match its declared type" },
  IMPORT_BLOCKED: { status: 422, message: "The import URL is not allowed" },
  RATE_LIMITED: { status: 429, message: "Too many requests" },
  INTERNAL: { status: 500, message: "Internal error" },
  // 503 (statusOverride) when it is the database that cannot write.
  STORAGE_UNAVAILABLE: { status: 503, message: "The file store cannot be reached right now: nothing was changed; retry in a minute" },
  SHUTTING_DOWN: { status: 503, message: "This server is shutting down: retry, and another server (or this one restarted) will answer" },
  STORAGE_FULL: { status: 507, message: "The server's storage is full: nothing was kept; retry later, or ask its operator to free space in DATA_DIR" },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

const STATUS_CODES: Record<number, ErrorCode> = { 401: "UNAUTHORIZED", 402: "INSUFFICIENT_CREDITS", 403: "FORBIDDEN", 404: "NOT_FOUND", 408: "REQUEST_TIMEOUT", 409: "INVALID_STATE", 413: "PAYLOAD_TOO_LARGE", 429: "RATE_LIMITED", 507: "STORAGE_FULL" };

/**
 * The catalog's code for an HTTP status whose body names none of ours: Better Auth's own refusals
 * (INVALID_EMAIL_OR_PASSWORD, ...), a proxy's HTML page. Any other 4xx reads as bad input.
 */
export function codeForStatus(status: number): ErrorCode {
  return STATUS_CODES[status] ?? (status >= 500 ? "INTERNAL" : "VALIDATION_ERROR");
}

/** The error envelope body. */
export interface ErrorBody {
  ok: false;
  error: { code: ErrorCode; message: string };
}

/** A typed, expected failure. Services throw it; the server's one error handler renders it. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  /** A status other than the catalog's, for the few HTTP-level cases (416, 503). */
  statusOverride?: number;

  constructor(code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(message ?? ERROR_CATALOG[code].message);
    this.name = "ServiceError";
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.headers = headers;
  }
}

/** Shorthand constructors so call sites read as sentences: `throw fail.notFound("file")`. */
export const fail = {
  validation: (message: string) => new ServiceError("VALIDATION_ERROR", message),
  notFound: (what = "Resource") => new ServiceError("NOT_FOUND", `${what} not found`),
  invalidState: (message: string) => new ServiceError("INVALID_STATE", message),
  forbidden: (message = "Forbidden") => new ServiceError("FORBIDDEN", message),
  unauthorized: () => new ServiceError("UNAUTHORIZED", "Unauthorized"),
};
