/**
 * The one API client of the web app (the official client in shared/src/client), on the page's
 * own origin so the browser sends the session cookie. Components reach the server only through
 * it, via the query hooks beside this file.
 */
import { ApiError, VektorClient } from "@vektor/shared/client";
import { validationSentences } from "./error-sentences";

// The only module that names the client package: moving to `@vektor/client` is this line.
export { isBatchFinished } from "@vektor/shared/client";

export const client = new VektorClient({ baseUrl: location.origin });

/** The address of a stored file's download (a plain link: the browser streams it to disk). */
export const downloadHref = (fileId: string) => client.t.url(`/api/files/download/${encodeURIComponent(fileId)}`);

/** What to tell a person about a failed call: the contract's message, never a code or a stack. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === "NETWORK_ERROR") return "The server cannot be reached. Check your connection and try again.";
    if (err.code === "VALIDATION_ERROR") return validationSentences(err.message);
    return err.message;
  }
  if (err instanceof DOMException && err.name === "AbortError") return "Cancelled.";
  return err instanceof Error ? err.message : String(err);
}

/** True for the answer a signed-out caller gets. */
export const isUnauthorized = (err: unknown) => err instanceof ApiError && err.status === 401;
