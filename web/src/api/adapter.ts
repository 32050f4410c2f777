/**
 * Calls the official client has no method for yet, made through its transport
 * (`client.t.call`), kept here so each is easy to swap for the client's own method later.
 */
import { client } from "./client";

/** Better Auth's session check: the session's user, or null when signed out (200 either way, no 401 in the console). */
export async function currentSession(): Promise<{ user: { id: string; email: string } } | null> {
  return client.t.call<{ user: { id: string; email: string } } | null>("GET", "/api/auth/get-session");
}
