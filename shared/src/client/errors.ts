import { codeForStatus, ERROR_CATALOG, type ErrorCode } from "../errors";

/**
 * The contract's error codes, plus `NETWORK_ERROR` for a server that could not be reached (no
 * HTTP answer at all, so no contract code applies).
 */
export type ApiErrorCode = ErrorCode | "NETWORK_ERROR";

/** A failed API call: the envelope's code and message, the HTTP status (0: no answer), and the request id. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

const isCode = (code: unknown): code is ErrorCode => typeof code === "string" && Object.hasOwn(ERROR_CATALOG, code);

/** Turn a non-OK response into an ApiError, whatever its body. */
export async function toApiError(res: Response): Promise<ApiError> {
  const requestId = res.headers.get("x-request-id");
  const text = await res.text().catch(() => "");
  let body: { error?: { code?: unknown; message?: unknown }; code?: unknown; message?: unknown } = {};
  try {
    body = JSON.parse(text) ?? {};
  } catch {
    // not JSON: the status decides the code, the text is the message
  }
  const raw = body.error?.code ?? body.code;
  const message = body.error?.message ?? body.message;
  const code = isCode(raw) ? raw : codeForStatus(res.status);
  return new ApiError(res.status, code, typeof message === "string" && message ? message : text.slice(0, 200) || res.statusText || `HTTP ${res.status}`, requestId);
}

/** A fetch that never got an answer (refused, reset, DNS), as an ApiError; aborts pass through unchanged. */
export function networkError(err: unknown, url: string): unknown {
  if (err instanceof Error && (err.name === "AbortError" || err.name === "TimeoutError")) return err;
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const why = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
  return new ApiError(0, "NETWORK_ERROR", `cannot reach ${new URL(url).origin} (${why})`, null);
}
