/** A failed API call: the envelope's code and message, the HTTP status, and the request id. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Turn a non-OK response into an ApiError, whatever its body. */
export async function toApiError(res: Response): Promise<ApiError> {
  const requestId = res.headers.get("x-request-id");
  const text = await res.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string }; code?: string; message?: string };
    const code = body.error?.code ?? body.code ?? `HTTP_${res.status}`;
    return new ApiError(res.status, code, body.error?.message ?? body.message ?? res.statusText, requestId);
  } catch {
    return new ApiError(res.status, `HTTP_${res.status}`, text.slice(0, 200) || res.statusText, requestId);
  }
}
